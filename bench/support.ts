// Small helpers shared by the bench files: timing, medians, a table.
import { spawnSync, type SpawnSyncOptions } from "node:child_process";

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  return [headers, ...rows].map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd()).join("\n") + "\n";
}

export const ms = (x: number) => `${x.toFixed(1)} ms`;

/** Wall time of one command; throws when it fails. */
export function timeCommand(cmd: string, args: string[], opts: SpawnSyncOptions = {}): number {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { stdio: ["ignore", "ignore", "pipe"], ...opts });
  const took = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed: ${r.stderr}`);
  return took;
}
