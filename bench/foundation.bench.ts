// Foundation figures against the budgets of DESIGN.md §11:
// - a state write through the binary ≤ 1.3 × the start of that verb (the same
//   command loaded and parsed, doing nothing: `internal session-state --help`).
//   Since the bare start (`--version`) loads no command at all (issue 22), it
//   is printed beside it for information;
// - `ls --json` with 1,000 sessions ≤ 250 ms, independent of prompt length.
// Uses SPEX_TEST_BIN / SPEX_TEST_CJS when set (private builds), else bin/ and dist/.
import { spawnSync } from "node:child_process";
import { seedRecord } from "../test/support/records";
import { type Sandbox, sandbox } from "../test/support/sandbox";

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function timed(sb: Sandbox, args: string[], runner: "bin" | "node", env: Record<string, string> = {}): number {
  const t0 = performance.now();
  const r = sb.spex(args, { runner, env });
  const ms = performance.now() - t0;
  if (r.code !== 0) throw new Error(`spex ${args.join(" ")} failed: ${r.stderr}`);
  return ms;
}

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  return [headers, ...rows].map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd()).join("\n") + "\n";
}

const ms = (x: number) => `${x.toFixed(1)} ms`;

function stateWrite(runs: number): string[][] {
  const rows: string[][] = [];
  // Each lock guard (issue 18): the abstract socket (Linux default) and flock (macOS, SPEX_LOCK_GUARD=flock);
  // and the ps process backend (macOS, SPEX_PROC=ps), whose self identity costs one `ps` run per write.
  const cases = [
    { runner: "bin", others: 0, env: {} },
    { runner: "bin", others: 0, env: { SPEX_LOCK_GUARD: "flock" } },
    { runner: "bin", others: 0, env: { SPEX_LOCK_GUARD: "flock", SPEX_PROC: "ps" } },
    { runner: "node", others: 0, env: {} },
    { runner: "node", others: 0, env: { SPEX_LOCK_GUARD: "flock" } },
    { runner: "bin", others: 999, env: {} },
  ] as const;
  for (const { runner, others, env } of cases) {
    const sb = sandbox();
    try {
      const { session_id: id } = seedRecord(sb.home, sb.repo, { prompt: "bench state writes", status: "idle" });
      for (let i = 0; i < others; i++) seedRecord(sb.home, sb.repo, { prompt: "another session", status: "idle" });
      spawnSync("sync");
      timed(sb, ["--version"], runner, env); // warm the page cache
      const startup: number[] = [];
      const verbStart: number[] = [];
      const writes: number[] = [];
      // Interleaved so drift on a shared machine hits every series alike.
      for (let i = 0; i < runs; i++) {
        startup.push(timed(sb, ["--version"], runner, env));
        verbStart.push(timed(sb, ["internal", "session-state", "--help"], runner, env));
        writes.push(timed(sb, ["internal", "session-state", i % 2 ? "idle" : "active", "--session", id], runner, env));
      }
      const ratio = median(writes) / median(verbStart);
      const choice = Object.entries(env).map(([k, v]) => `${k}=${v}`).join(" ");
      rows.push([
        runner === "bin" ? "bin/spex" : "node dist/spex.cjs",
        choice || "(defaults)",
        String(others + 1),
        ms(median(startup)),
        ms(median(verbStart)),
        ms(median(writes)),
        `${ratio.toFixed(2)}×`,
        `${(median(writes) / median(startup)).toFixed(2)}×`,
        runner === "bin" && !("SPEX_PROC" in env) ? (ratio <= 1.3 ? "ok (≤ 1.3×)" : "MISSED (≤ 1.3×)") : "(info)",
      ]);
    } finally {
      sb.cleanup();
    }
  }
  return rows;
}

/** Seed one project per prompt size, then time `ls --json` on them interleaved so drift hits all alike. */
function listing(sessions: number, promptSizes: number[], runs: number): { median: number; min: number }[] {
  const boxes = promptSizes.map((bytes) => {
    const sb = sandbox();
    const prompt = `bench prompt ${"lorem ipsum dolor sit amet ".repeat(Math.ceil(bytes / 27))}`.slice(0, bytes);
    for (let i = 0; i < sessions; i++) seedRecord(sb.home, sb.repo, { prompt, status: i % 3 ? "idle" : "active" });
    return sb;
  });
  spawnSync("sync"); // so writeback of the seeded prompts does not land inside the timed runs
  try {
    for (const sb of boxes) timed(sb, ["session", "ls", "--json"], "bin"); // warm-up, not counted
    const times: number[][] = boxes.map(() => []);
    for (let i = 0; i < runs; i++) boxes.forEach((sb, j) => times[j]!.push(timed(sb, ["session", "ls", "--json"], "bin")));
    return times.map((t) => ({ median: median(t), min: Math.min(...t) }));
  } finally {
    for (const sb of boxes) sb.cleanup();
  }
}

export default async function run(): Promise<void> {
  process.stdout.write("state write vs the start of its verb (median of 20 each)\n");
  process.stdout.write(table(["runner", "backends", "sessions", "--version", "verb start", "session-state", "ratio", "vs --version", "budget"], stateWrite(20)));

  process.stdout.write("\nls --json (bin/spex, median of 9, the two prompt sizes interleaved)\n");
  const rows: string[][] = [];
  const results = new Map<string, number>();
  const sizes = [100, 100 * 1024];
  for (const sessions of [100, 1000]) {
    const measured = listing(sessions, sizes, 9);
    measured.forEach((r, j) => {
      results.set(`${sessions}/${sizes[j]}`, r.median);
      const budget = sessions === 1000 ? (r.median <= 250 ? "ok (≤ 250 ms)" : "MISSED (≤ 250 ms)") : "";
      rows.push([String(sessions), j === 0 ? "100 B" : "100 KB", ms(r.median), ms(r.min), `${(r.median / sessions).toFixed(3)} ms`, budget]);
    });
  }
  process.stdout.write(table(["sessions", "prompt", "median", "min", "per session", "budget"], rows));
  const small = results.get("1000/100")!;
  const large = results.get(`1000/${100 * 1024}`)!;
  process.stdout.write(`prompt-length effect at 1,000 sessions: 100 KB / 100 B = ${(large / small).toFixed(2)}×\n`);
}
