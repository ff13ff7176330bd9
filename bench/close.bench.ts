// `close` of 20 live sessions in a row (DESIGN.md §6, issue 4): total time and
// where it goes. Each close runs the binary with SPEX_TEARDOWN_TIMING=1, which
// reports the time spent in git calls, tmux calls and waiting for the agent to
// exit; the rest of the wall time is spex itself (startup, locks, record, fs).
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SPEX_BIN, type Sandbox, sandbox } from "../test/support/sandbox";
import { seedLive } from "../test/support/teardown";
import { median, ms, table, timeCommand } from "./support";

const SESSIONS = 20;
const REPO_FILES = 2000;

interface Timing {
  gitMs: number;
  tmuxMs: number;
  leafMs: number;
  gitCalls: number;
  tmuxCalls: number;
  processMs: number;
}

function fillRepo(sb: Sandbox): void {
  for (let d = 0; d < REPO_FILES / 500; d++) {
    const dir = join(sb.repo, "src", `d${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 500; f++) writeFileSync(join(dir, `f${f}.txt`), `file ${d}/${f}\n`);
  }
  sb.git(["add", "-A"]);
  sb.git(["commit", "-q", "-m", "fill"]);
}

function closeOne(sb: Sandbox, id: string): { wall: number; timing: Timing } {
  const t0 = performance.now();
  const r = spawnSync(SPEX_BIN, ["session", "close", id, "--json"], { cwd: sb.repo, env: { ...sb.env, SPEX_TEARDOWN_TIMING: "1" }, encoding: "utf8" });
  const wall = performance.now() - t0;
  if (r.status !== 0) throw new Error(`close ${id} failed: ${r.stderr}`);
  const line = r.stderr.split("\n").find((l) => l.startsWith("spex-timing "));
  if (!line) throw new Error(`no timing line from close: ${r.stderr}`);
  return { wall, timing: JSON.parse(line.slice("spex-timing ".length)) as Timing };
}

export default async function run(): Promise<void> {
  const sb = sandbox();
  try {
    fillRepo(sb);
    const sessions = Array.from({ length: SESSIONS }, (_, i) => seedLive(sb, { slug: `bench-${i}`, agent: "owned" }));
    const startup = median(Array.from({ length: 10 }, () => timeCommand(SPEX_BIN, ["--version"], { env: sb.env })));

    const results = sessions.map((s) => closeOne(sb, s.id));
    const sum = (f: (r: { wall: number; timing: Timing }) => number) => results.reduce((a, r) => a + f(r), 0);
    const wall = sum((r) => r.wall);
    const git = sum((r) => r.timing.gitMs);
    const tmux = sum((r) => r.timing.tmuxMs);
    const leaf = sum((r) => r.timing.leafMs);
    const spex = wall - git - tmux - leaf;
    const pct = (x: number) => `${((100 * x) / wall).toFixed(0)} %`;
    const per = (x: number) => ms(x / SESSIONS);

    process.stdout.write(`close of ${SESSIONS} live sessions in a row (each: an agent pid to TERM, a tmux session, a worktree of a ${REPO_FILES}-file repo, a branch)\n`);
    process.stdout.write(
      table(
        ["share", "total", "per close", "of wall"],
        [
          ["wall (20 closes)", ms(wall), per(wall), "100 %"],
          [`git (${results[0]!.timing.gitCalls} calls per close)`, ms(git), per(git), pct(git)],
          [`tmux (${results[0]!.timing.tmuxCalls} calls per close)`, ms(tmux), per(tmux), pct(tmux)],
          ["agent exit (TERM → gone)", ms(leaf), per(leaf), pct(leaf)],
          ["spex (startup, locks, record, fs)", ms(spex), per(spex), pct(spex)],
          ["  of which bare startup", ms(startup * SESSIONS), ms(startup), pct(startup * SESSIONS)],
        ],
      ),
    );
    process.stdout.write(`median close: ${ms(median(results.map((r) => r.wall)))}\n`);
    const left = sb.git(["worktree", "list"]).trim().split("\n").length - 1;
    if (left !== 0) throw new Error(`${left} worktrees left after closing`);
  } finally {
    sb.cleanup();
  }
}
