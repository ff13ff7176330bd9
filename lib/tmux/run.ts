// Running tmux: the socket a call goes to, the client's arguments and
// environment, and one call waited on with or without blocking. lib/tmux's
// other modules build their commands on these.
import { SpexError } from "../errors";
import { childProcess } from "../proc/child-process";

/** The socket name of the user's own tmux server: where plain `tmux` (outside tmux) goes. */
export const DEFAULT_SOCKET = "default";

/**
 * The socket new sessions go to (`tmux -L <name>`): SPEX_TMUX, else
 * `tmux.socket` of spexcode.json (the caller passes it), else a dedicated
 * `spex` server, so a stray `kill-server` on the user's own cannot take the
 * fleet down. `default` puts them on the user's own server.
 */
export function spexSocket(configured = "", env: NodeJS.ProcessEnv = process.env): string {
  return env.SPEX_TMUX || configured || "spex";
}

/** One name per server: `default` and "" both name the user's own; "" is the one live rows use. */
export function serverOf(socket: string): string {
  return socket === DEFAULT_SOCKET ? "" : socket;
}

/**
 * A socket of "" means the user's default tmux server. `-u` because a tmux
 * client whose LC_ALL/LC_CTYPE/LANG names no UTF-8 (unset, C, POSIX: cron,
 * systemd, containers, an ssh server without AcceptEnv) prints every control
 * character and non-ASCII byte of a format as `_`: the field separators of
 * `list-panes -F` and every unicode folder, title or session name. spex reads
 * what these calls print, so its own client is UTF-8 whatever locale it got.
 */
export function baseArgs(socket: string): string[] {
  const args = socket ? ["-u", "-L", socket] : ["-u"];
  // Only consulted when a command starts the server.
  const conf = process.env.SPEX_TMUX_CONF;
  if (conf) args.push("-f", conf);
  return args;
}

export interface TmuxResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function tmuxEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  // Inside a tmux pane TMUX points at that server: never let it redirect our calls.
  delete env.TMUX;
  delete env.TMUX_PANE;
  // A server started from inside an agent must not carry that session's identity into every
  // pane it opens later (stop ends whatever runs with a session's id: lib/teardown/strays.ts).
  delete env.SPEX_SESSION_ID;
  delete env.SPEX_RECORD;
  delete env.SPEX_HARNESS;
  return env;
}

const INSTALL_TMUX = "install it (e.g. `apt-get install tmux`, `brew install tmux`)";

/** The refusal when tmux is not on PATH; `then` says what to do once it is (the hint starts with how to install it). */
export function tmuxMissing(then = "then check with `spex doctor`"): SpexError {
  return new SpexError("tmux_missing", "tmux is not installed (or not on PATH); spex runs every session in tmux", { hint: `${INSTALL_TMUX}, ${then}` });
}

/** tmux that cannot even be started: say so plainly instead of a bare ENOENT. */
function tmuxSpawnError(e: Error): Error {
  if ((e as NodeJS.ErrnoException).code !== "ENOENT") return e;
  return tmuxMissing();
}

// A synchronous tmux call uses Bun's own spawnSync in the binary (a third of
// the CPU of node:child_process's: live makes several tmux calls per run, a
// hook one or two); Node, and every asynchronous call, load node:child_process
// on first use (lib/proc/child-process).

const MAX_OUTPUT = 64 * 1024 * 1024;

export function tmuxSync(socket: string, args: string[], input?: string | Buffer): TmuxResult {
  const argv = [...baseArgs(socket), ...args];
  if (typeof Bun !== "undefined") {
    let r: ReturnType<typeof Bun.spawnSync>;
    try {
      r = Bun.spawnSync({ cmd: ["tmux", ...argv], env: tmuxEnv(), stdin: input === undefined ? "ignore" : Buffer.from(input), stdout: "pipe", stderr: "pipe", maxBuffer: MAX_OUTPUT });
    } catch (e) {
      throw tmuxSpawnError(e as Error);
    }
    return { code: r.exitCode ?? -1, stdout: r.stdout?.toString("utf8") ?? "", stderr: r.stderr?.toString("utf8") ?? "" };
  }
  const r = childProcess().spawnSync("tmux", argv, { encoding: "utf8", env: tmuxEnv(), input, maxBuffer: MAX_OUTPUT });
  if (r.error) throw tmuxSpawnError(r.error);
  return { code: r.status ?? -1, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

/**
 * One tmux process, waited on without blocking. `onOutput`, when given, sees
 * the output so far each time more of it arrives (tmux writes what a command
 * printed before it runs the commands a `run-shell -C` generated).
 */
export async function tmuxAsync(socket: string, args: string[], input?: string | Buffer, onOutput?: (soFar: string) => void, signal?: AbortSignal): Promise<TmuxResult> {
  if (typeof Bun !== "undefined" && input === undefined && onOutput) {
    // Bun's own spawn for live's streamed listing: node:child_process is a module of its own to load
    // (9 ms of live at 200 panes). The other async callers run in long-lived processes (the
    // dashboard's backend: typing, frames) that pay that load once, and keep child_process.
    const start = () => {
      try {
        return Bun.spawn({ cmd: ["tmux", ...baseArgs(socket), ...args], env: tmuxEnv(), stdin: "ignore", stdout: "pipe", stderr: "pipe" } as const);
      } catch (e) {
        throw tmuxSpawnError(e as Error);
      }
    };
    const child = start();
    signal?.addEventListener("abort", () => child.kill(), { once: true });
    const readOut = async () => {
      if (!onOutput) return new Response(child.stdout).text();
      const decoder = new TextDecoder();
      let text = "";
      for await (const chunk of child.stdout) {
        text += decoder.decode(chunk, { stream: true });
        onOutput(text);
      }
      return text + decoder.decode();
    };
    const [stdout, stderr, code] = await Promise.all([readOut(), new Response(child.stderr).text(), child.exited]);
    return { code, stdout, stderr };
  }
  return new Promise((resolve, reject) => {
    const child = childProcess().spawn("tmux", [...baseArgs(socket), ...args], { env: tmuxEnv(), stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
      onOutput?.(stdout);
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    signal?.addEventListener("abort", () => child.kill(), { once: true });
    child.on("error", (e) => reject(tmuxSpawnError(e)));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** Run several tmux commands in one process, separated by `;` arguments. */
export function tmuxBatch(socket: string, commands: string[][]): TmuxResult {
  const args: string[] = [];
  commands.forEach((c, i) => {
    if (i > 0) args.push(";");
    args.push(...c);
  });
  return tmuxSync(socket, args);
}
