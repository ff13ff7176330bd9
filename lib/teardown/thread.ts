// Is a native agent thread still held by a running process? Agents are started
// with their thread id on the command line (`--session-id`, `--resume`,
// `resume <id>`), often inside a longer argument (`--resume=<id>`, a wrapper's
// `sh -c '… --resume <id> …'`): a live process naming it anywhere in its argv,
// as a whole token, holds it. This process and its ancestors (which carry the
// id only because they asked about it) do not count.
import { ancestry, commandLines } from "../proc";

/** The id as a token of `text`: not glued to more id characters on either side (so `1000` is not in `10000`). */
function namesThread(text: string, thread: string): boolean {
  for (let at = text.indexOf(thread); at >= 0; at = text.indexOf(thread, at + 1)) {
    const before = at === 0 ? "" : text[at - 1]!;
    const after = text[at + thread.length] ?? "";
    if (!/[A-Za-z0-9_-]/.test(before) && !/[A-Za-z0-9_-]/.test(after)) return true;
  }
  return false;
}

export function liveThreadHolders(thread: string): number[] {
  if (!thread) return [];
  const askers = new Set([process.pid, ...ancestry(process.pid)]);
  return commandLines()
    .filter(({ pid, argv }) => !askers.has(pid) && argv.some((a) => namesThread(a, thread)))
    .map(({ pid }) => pid);
}
