// Small helpers shared by the bench files: timing (a probe's wall and CPU time), medians, a table.
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

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

export interface Probe {
  name: string;
  cmd: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
}

export interface Timing {
  /** Wall time, ms. */
  wall: number;
  /** CPU time of the process itself (user + system), ms: what a busy machine inflates least. */
  cpu: number;
}

/** One run; throws when it fails. */
export function timeOnce(p: Probe): Timing {
  const t0 = performance.now();
  const r = Bun.spawnSync({ cmd: [p.cmd, ...p.args], cwd: p.cwd, env: p.env ?? (process.env as Record<string, string>), stdin: "ignore", stdout: "ignore", stderr: "pipe" });
  const wall = performance.now() - t0;
  if (r.exitCode !== 0) throw new Error(`${p.name} failed (exit ${r.exitCode}): ${r.stderr?.toString()}`);
  return { wall, cpu: Number(r.resourceUsage?.cpuTime.total ?? 0n) / 1000 };
}

/** A logging `tmux` first on PATH (in `dir`): every tmux process spex starts leaves one line. */
export function tmuxCounter(dir: string): { env: Record<string, string>; count(): number; reset(): void } {
  const real = spawnSync("sh", ["-c", "command -v tmux"], { encoding: "utf8" }).stdout.trim();
  const bin = join(dir, "tmux-wrapper");
  mkdirSync(bin, { recursive: true });
  const log = join(dir, "tmux-calls.log");
  writeFileSync(join(bin, "tmux"), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(join(bin, "tmux"), 0o755);
  return {
    env: { PATH: `${bin}:${process.env.PATH}` },
    count: () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean).length : 0),
    reset: () => rmSync(log, { force: true }),
  };
}
