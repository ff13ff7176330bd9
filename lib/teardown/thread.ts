// Is a native agent thread still held by a running process? Agents are started
// with their thread id on the command line (`--session-id`, `--resume`,
// `resume <id>`), so a live process naming it holds it.
import { readFileSync, readdirSync } from "node:fs";

export function liveThreadHolders(thread: string): number[] {
  if (!thread) return [];
  const holders: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
    } catch {
      continue; // gone meanwhile, or not ours to read
    }
    if (argv.some((a) => a === thread || a.endsWith(`=${thread}`))) holders.push(Number(name));
  }
  return holders;
}
