// Whether a tmux server can be listening, from its socket file alone. node:fs
// loads on the first question, not with the module: live's early start
// (lib/live/early.ts) asks before that load, through Bun's own stat.
import { DEFAULT_SOCKET } from "./run";

/** The socket file of a server: `$TMUX_TMPDIR/tmux-<uid>/<name>` (tmux's own rule), `default` for the user's. */
function socketFile(socket: string): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  return `${process.env.TMUX_TMPDIR || "/tmp"}/tmux-${uid}/${socket || DEFAULT_SOCKET}`;
}

/** No server can be listening: its socket file is not there (settled without starting a tmux process). */
export function noSocketFile(socket: string): boolean {
  const file = socketFile(socket);
  return file !== undefined && !(require("node:fs") as typeof import("node:fs")).existsSync(file);
}

/**
 * A hint for live's early start that does not load node:fs (3 ms of a
 * start): Bun's size of a file is 0 when it is missing and Infinity for a
 * socket (Bun 1.4). Only a hint: live asks noSocketFile before it uses what
 * an early call found, so a wrong guess costs a tmux process or the early
 * start, never a wrong answer.
 */
export function socketFileLikely(socket: string): boolean {
  if (typeof Bun === "undefined") return !noSocketFile(socket);
  const file = socketFile(socket);
  return file === undefined || Bun.file(file).size !== 0;
}
