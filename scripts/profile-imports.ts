// What importing each module costs at startup, the way the binary pays it:
// every module given (default: each command file, the big lib folders and the
// npm dependencies) is bundled alone as the binary's code is (bytecode,
// minified syntax and whitespace, clipanion's default context made inert:
// scripts/compile.ts), then run N times against an empty bundle built the
// same way. Prints the median extra milliseconds of CPU time of each, most
// expensive first; a module's figure includes everything it imports. A developer's tool
// (bench/README.md "Where the start goes"), not part of the build.
//
//   bun scripts/profile-imports.ts                  # the default list
//   bun scripts/profile-imports.ts lib/record lib/tmux clipanion
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { inertClipanionContext } from "./compile";

const ROOT = resolve(__dirname, "..");
const BUN = join(ROOT, "node_modules/.bin/bun");
const RUNS = Number(process.env.RUNS ?? 15);

function defaultTargets(): string[] {
  const registry = readFileSync(join(ROOT, "cmd/registry.ts"), "utf8");
  const commands = [...registry.matchAll(/from "\.\/([^"]+)"/g)].map((m) => `cmd/${m[1]}`);
  const libs = ["lib/record", "lib/store", "lib/sessions", "lib/tmux", "lib/live", "lib/machines", "lib/comms/install", "lib/create", "lib/review", "lib/teardown", "lib/doctor", "lib/backend", "lib/generated/assets", "lib/generated/dashboard", "lib/cli/help"];
  return [...libs, "clipanion", "typanion", "simple-git", ...commands];
}

async function bundle(dir: string, name: string, source: string): Promise<string> {
  const entry = join(dir, `${name}.entry.ts`);
  writeFileSync(entry, source);
  const out = join(dir, name);
  mkdirSync(out, { recursive: true });
  const r = await Bun.build({ entrypoints: [entry], outdir: out, target: "bun", format: "cjs", bytecode: true, minify: { syntax: true, whitespace: true }, define: { __SPEX_BUILD__: '{"commit":"x","date":"y"}' }, plugins: [inertClipanionContext] });
  if (!r.success) throw new AggregateError(r.logs, `bundling ${name} failed`);
  return join(out, `${name}.entry.js`);
}

/** CPU time (user + system) of one run, ms: a busy machine inflates it far less than wall time. */
function time(file: string): number {
  const r = Bun.spawnSync({ cmd: [BUN, file], stdin: "ignore", stdout: "ignore", stderr: "ignore" });
  if (r.exitCode !== 0) throw new Error(`${file} exited ${r.exitCode}`);
  return Number(r.resourceUsage?.cpuTime.total ?? 0n) / 1000;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const targets = process.argv.length > 2 ? process.argv.slice(2) : defaultTargets();
  // Inside the checkout (.bench/ is ignored by git) so bare imports resolve from node_modules.
  mkdirSync(join(ROOT, ".bench"), { recursive: true });
  const dir = mkdtempSync(join(ROOT, ".bench", "imports-"));
  try {
    const empty = await bundle(dir, "empty", "export {};\n");
    const files: { target: string; file: string }[] = [];
    for (const [i, t] of targets.entries()) {
      const spec = t.startsWith("cmd/") || t.startsWith("lib/") ? join(ROOT, t) : t;
      files.push({ target: t, file: await bundle(dir, `m${i}`, `import * as m from ${JSON.stringify(spec)};\n(globalThis as any).keep = m;\n`) });
    }
    // Interleaved, so a burst of load on a shared machine hits every module alike.
    const samples = new Map<string, number[]>([["(empty)", []], ...files.map((f) => [f.target, []] as [string, number[]])]);
    for (let r = 0; r < RUNS; r++) {
      samples.get("(empty)")!.push(time(empty));
      for (const f of files) samples.get(f.target)!.push(time(f.file));
    }
    const base = median(samples.get("(empty)")!);
    const rows = files.map((f) => ({ target: f.target, extra: median(samples.get(f.target)!) - base })).sort((a, b) => b.extra - a.extra);
    process.stdout.write(`empty bundle: ${base.toFixed(1)} ms of CPU (median of ${RUNS})\n`);
    for (const r of rows) process.stdout.write(`${r.extra.toFixed(1).padStart(7)} ms  ${r.target}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
