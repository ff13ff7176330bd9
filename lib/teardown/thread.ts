// Is a native agent thread still held by a running process? Agents are started
// with their thread id on the command line (`--session-id`, `--resume`,
// `resume <id>`), so a live process naming it holds it.
import { commandLines } from "../proc";

export function liveThreadHolders(thread: string): number[] {
  if (!thread) return [];
  return commandLines()
    .filter(({ pid, argv }) => pid !== process.pid && argv.some((a) => a === thread || a.endsWith(`=${thread}`)))
    .map(({ pid }) => pid);
}
