// The board's screen as a module of its own (dist/board.mjs, see
// scripts/build-board.ts): `spex board` loads it with the services it needs
// (lib/board/index.ts) and this draws them with Ink on the alternate screen.
import { render } from "ink";
import { Component, type ReactNode } from "react";
import type { BoardServices } from "../model/services";
import { App } from "./components/App";
import { AlternateScreen, guardTerminal } from "./terminal";
import { layoutReady } from "./layout";

export interface BoardOptions {
  color: boolean;
  archived: boolean;
  stdout: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  stderr: NodeJS.WriteStream;
}

/**
 * An error thrown while drawing ends the board as an uncaught one does
 * (terminal restored, the error printed, exit 70). Without it Ink's own
 * boundary takes it and unmounts from inside React's commit, which left the
 * board's last frame up, deaf to every key (test/integration/board-crash.test.ts).
 */
class CrashGuard extends Component<{ crash: (error: unknown) => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    // Out of React's commit first: the crash unmounts the tree.
    setImmediate(() => this.props.crash(error));
  }

  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}

export async function startBoard(services: BoardServices, opts: BoardOptions): Promise<number> {
  await layoutReady;
  const screen = new AlternateScreen({ stdout: opts.stdout, stdin: opts.stdin });
  let app: ReturnType<typeof render> | undefined;
  const guard = guardTerminal(screen, () => app?.unmount());
  screen.enter();
  /** Outside tmux an attach needs this terminal: leave the alternate screen, let tmux have it, then draw again from scratch. */
  const suspend = (run: () => number): number => {
    screen.leave();
    try {
      return run();
    } finally {
      screen.enter();
      if (opts.stdin.isTTY) opts.stdin.setRawMode(true);
      // Ink would otherwise draw only the lines that differ from its last frame, on a screen now blank.
      app?.clear();
    }
  };
  try {
    const board = (
      <CrashGuard crash={guard.crash}>
        <App services={services} color={opts.color} archived={opts.archived} suspend={suspend} />
      </CrashGuard>
    );
    app = render(board, {
      stdout: opts.stdout,
      stdin: opts.stdin,
      stderr: opts.stderr,
      exitOnCtrlC: false,
      patchConsole: false,
      // A key must reach the screen within a frame: 60 a second keeps that under 17 ms.
      maxFps: 60,
    });
    await app.waitUntilExit();
    return 0;
  } finally {
    app?.unmount();
    screen.leave();
    guard.release();
  }
}
