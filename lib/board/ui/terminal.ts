// The board's terminal manners: it draws on the alternate screen, and the
// terminal is handed back exactly as found (main screen and its contents,
// cursor shown, cooked mode, no colour left on) however the board ends: q,
// Ctrl-C, SIGTERM/SIGHUP/SIGINT, or a crash. Attaching outside tmux steps
// aside the same way and comes back.

const ENTER = "\u001b[?1049h\u001b[2J\u001b[H";
const LEAVE = "\u001b[0m\u001b[?25h\u001b[?1049l";

export interface Tty {
  stdout: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
}

export class AlternateScreen {
  private on = false;

  constructor(private tty: Tty) {}

  enter(): void {
    if (this.on) return;
    this.on = true;
    this.write(ENTER);
  }

  /** Back to the main screen, cursor shown, input cooked. Safe to call twice, and on a terminal that is gone. */
  leave(): void {
    if (!this.on) return;
    this.on = false;
    this.write(LEAVE);
    try {
      if (this.tty.stdin.isTTY) this.tty.stdin.setRawMode(false);
    } catch {
      // The terminal went away (SIGHUP): there is nothing to restore.
    }
  }

  get active(): boolean {
    return this.on;
  }

  private write(text: string): void {
    try {
      this.tty.stdout.write(text);
    } catch {
      // As above: a closed terminal takes no bytes.
    }
  }
}

export interface TerminalGuard {
  /** The board's own orderly end: the handlers go. */
  release(): void;
  /** An error the board caught itself (a render's, through its error boundary): the same end as an uncaught one. */
  crash(error: unknown): void;
}

/**
 * Restore the terminal before anything else can print: on a signal (then
 * end with its conventional code), and on an uncaught error (printed after the
 * restore, so it lands on the main screen where it can be read).
 */
export function guardTerminal(screen: AlternateScreen, stop: () => void): TerminalGuard {
  const signals: NodeJS.Signals[] = ["SIGTERM", "SIGHUP", "SIGINT"];
  const codes: Record<string, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };
  const onSignal = (signal: NodeJS.Signals) => {
    try {
      stop();
    } finally {
      screen.leave();
      process.exit(codes[signal] ?? 1);
    }
  };
  const onCrash = (error: unknown) => {
    try {
      stop();
    } catch {
      // Already broken: the restore below is what matters.
    }
    screen.leave();
    process.stderr.write(`spex board: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(70);
  };
  const onExit = () => screen.leave();
  for (const s of signals) process.on(s, onSignal);
  process.on("uncaughtException", onCrash);
  process.on("unhandledRejection", onCrash);
  process.on("exit", onExit);
  return {
    release() {
      for (const s of signals) process.off(s, onSignal);
      process.off("uncaughtException", onCrash);
      process.off("unhandledRejection", onCrash);
      process.off("exit", onExit);
    },
    crash: onCrash,
  };
}
