// `spex session live --json` at 10, 50 and 200 panes (DESIGN.md §11: 100 panes
// in ≤ 3 tmux processes and ≤ 300 ms), against the approach other tools take:
// one `tmux capture-pane` process per pane, timed in the same run.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SPEX_BIN, type Sandbox, sandbox } from "../test/support/sandbox";
import { median, ms, table, timeCommand } from "./support";

const SIZES = [10, 50, 200];
const RUNS = 5;

function fill(sb: Sandbox, panes: number): void {
  const batch = ["new-session", "-d", "-s", "bench", "-x", "120", "-y", "30", "cat"];
  for (let i = 1; i < panes; i++) batch.push(";", "new-window", "-t", "bench", "cat");
  const r = sb.tmux(batch);
  if (r.status !== 0) throw new Error(`tmux: ${r.stderr}`);
}

/** A logging `tmux` first on PATH: every process spex spawns leaves one line. */
function counter(sb: Sandbox): { env: Record<string, string>; count(): number; reset(): void } {
  const real = spawnSync("sh", ["-c", "command -v tmux"], { encoding: "utf8" }).stdout.trim();
  const dir = join(sb.dir, "tmux-wrapper");
  mkdirSync(dir, { recursive: true });
  const log = join(sb.dir, "tmux-calls.log");
  writeFileSync(join(dir, "tmux"), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(join(dir, "tmux"), 0o755);
  return {
    env: { PATH: `${dir}:${process.env.PATH}` },
    count: () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean).length : 0),
    reset: () => rmSync(log, { force: true }),
  };
}

function perPaneBaseline(sb: Sandbox): { time: number; processes: number } {
  const base = ["-L", sb.tmuxSocket];
  const t0 = performance.now();
  const list = spawnSync("tmux", [...base, "list-panes", "-a", "-F", "#{pane_id}"], { encoding: "utf8" });
  const ids = list.stdout.split("\n").filter(Boolean);
  for (const id of ids) spawnSync("tmux", [...base, "capture-pane", "-p", "-J", "-t", id], { encoding: "utf8" });
  return { time: performance.now() - t0, processes: ids.length + 1 };
}

export default async function run(): Promise<void> {
  const rows: string[][] = [];
  for (const panes of SIZES) {
    const sb = sandbox();
    const userStandIn = `${sb.tmuxSocket}-user`;
    try {
      fill(sb, panes);
      const c = counter(sb);
      const env = { ...sb.env, ...c.env, SPEX_TMUX_SERVERS: `${sb.tmuxSocket},${userStandIn}` };
      const check = spawnSync(SPEX_BIN, ["session", "live", "--json"], { env, cwd: sb.dir, encoding: "utf8", maxBuffer: 64 << 20 });
      const seen = JSON.parse(check.stdout).length;
      if (seen !== panes) throw new Error(`live saw ${seen} panes, expected ${panes}`);
      c.reset();
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push(timeCommand(SPEX_BIN, ["session", "live", "--json"], { env, cwd: sb.dir }));
      const spawned = c.count() / RUNS;
      const baseline: number[] = [];
      let baseProcs = 0;
      for (let i = 0; i < RUNS; i++) {
        const b = perPaneBaseline(sb);
        baseline.push(b.time);
        baseProcs = b.processes;
      }
      const startup: number[] = [];
      for (let i = 0; i < RUNS; i++) startup.push(timeCommand(SPEX_BIN, ["--version"], { env: sb.env }));
      rows.push([String(panes), ms(median(times)), String(spawned), ms(median(baseline)), String(baseProcs), ms(median(startup))]);
    } finally {
      spawnSync("tmux", ["-L", userStandIn, "kill-server"]);
      sb.cleanup();
    }
  }
  process.stdout.write(
    table(["panes", "live --json", "tmux procs", "per-pane capture (baseline)", "baseline procs", "spex startup"], rows) +
      `medians of ${RUNS} runs; live scans two servers (the sandbox's and an empty stand-in for the user's default)\n`,
  );
}

if (require.main === module) void run();
