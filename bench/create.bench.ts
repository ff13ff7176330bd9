// Create and hook figures against DESIGN.md §11:
// - the hook fast path (no state change) spawns nothing and takes ≤ 5 ms;
// - `new --no-launch` ≤ 1.5 × a raw `git worktree add` of the same repo, plus startup.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { seedRecord } from "../test/support/records";
import { REPO_ROOT, SPEX_BIN, type Sandbox, sandbox } from "../test/support/sandbox";
import { projectStore, sessionPaths } from "../lib/store";
import { median, ms, table, timeCommand } from "./support";

function hookFigures(runs: number): string[][] {
  const sb = sandbox();
  try {
    const hook = join(REPO_ROOT, "hooks", "agent-hook.sh");
    const fast = seedRecord(sb.home, sb.repo, { status: "idle" });
    const slow = seedRecord(sb.home, sb.repo, { status: "idle" });
    const envFor = (id: string) => ({
      ...sb.env,
      SPEX_RECORD: sessionPaths(projectStore(sb.repo, sb.home), id).record,
      SPEX_BIN,
      SPEX_SESSION_ID: id,
      SPEX_PROJECT_ROOT: sb.repo,
    });
    const fastTimes: number[] = [];
    const writeTimes: number[] = [];
    const startup: number[] = [];
    for (let i = 0; i < runs; i++) {
      fastTimes.push(timeCommand("sh", [hook, "claude", "stop", "Stop"], { env: envFor(fast.session_id), input: "{}" }));
      // Alternate turn/stop so every call is a real change written through the binary.
      const action = i % 2 ? ["stop", "Stop"] : ["turn", "UserPromptSubmit"];
      writeTimes.push(timeCommand("sh", [hook, "claude", ...action], { env: envFor(slow.session_id), input: "{}" }));
      startup.push(timeCommand(SPEX_BIN, ["--version"], { env: sb.env }));
    }
    return [
      ["hook, no change (fast path)", ms(median(fastTimes)), "≤ 5 ms, no process spawned"],
      ["hook, a real change (via the binary)", ms(median(writeTimes)), `${(median(writeTimes) / median(startup)).toFixed(2)} × bare startup`],
      ["spex --version (bare startup)", ms(median(startup)), ""],
    ];
  } finally {
    sb.cleanup();
  }
}

function fillRepo(sb: Sandbox, files: number): void {
  for (let d = 0; d < Math.ceil(files / 500); d++) {
    const dir = join(sb.repo, "src", `d${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 500 && d * 500 + f < files; f++) writeFileSync(join(dir, `f${f}.txt`), `file ${d}/${f}\n`);
  }
  sb.git(["add", "-A"]);
  sb.git(["commit", "-q", "-m", "many files"]);
}

function createFigures(label: string, files: number, runs: number): string[] {
  const sb = sandbox();
  try {
    if (files > 0) fillRepo(sb, files);
    const raw: number[] = [];
    const spex: number[] = [];
    const startup: number[] = [];
    for (let i = 0; i < runs; i++) {
      raw.push(timeCommand("git", ["worktree", "add", "-q", "-b", `raw-${i}`, join(sb.dir, `raw-${i}`), "main"], { cwd: sb.repo, env: sb.env }));
      spex.push(timeCommand(SPEX_BIN, ["session", "new", "--no-launch", "--launcher", "shell", `bench task ${i}`], { cwd: sb.repo, env: sb.env }));
      // The start of this verb (its command loaded and parsed, nothing done): `--version` loads no command since issue 22.
      startup.push(timeCommand(SPEX_BIN, ["session", "new", "--help"], { env: sb.env }));
    }
    const ratio = median(spex) / (median(raw) + median(startup));
    return [label, ms(median(raw)), ms(median(startup)), ms(median(spex)), `${ratio.toFixed(2)} (budget ≤ 1.5)`];
  } finally {
    sb.cleanup();
  }
}

export default async function run(): Promise<void> {
  process.stdout.write(table(["hook path", "median", "note"], hookFigures(30)));
  process.stdout.write("\n");
  process.stdout.write(
    table(
      ["repo", "git worktree add", "spex new --help (its start)", "spex new --no-launch", "new / (git + start)"],
      [createFigures("small (1 file)", 0, 8), createFigures("large (10k files)", 10000, 4)],
    ),
  );
}

if (require.main === module) run();
