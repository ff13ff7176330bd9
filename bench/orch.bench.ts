// What an orchestrator reads, at fleet scale (issue 13):
// - `terminal ls --json` with 10 and 50 terminals: tmux processes spawned and
//   wall time, against a baseline run in the same bench that asks tmux about
//   each terminal in a process of its own (`has-session` per terminal);
// - `snapshot --json` against `session ls --json --all` on the same store
//   (100 and 1,000 sessions, 20 terminals, tasks and leases): the ratio says
//   what the rest of the document costs on top of the rows;
// - `session read` against the binary's bare startup.
// Every answer is checked, not only timed. Uses SPEX_TEST_BIN when set.
import { spawnSync } from "node:child_process";
import { seedRecord } from "../test/support/records";
import { type Sandbox, sandbox } from "../test/support/sandbox";
import { seedLive } from "../test/support/teardown";
import { median, ms, table, tmuxCounter } from "./support";

const RUNS = 7;

function timed(sb: Sandbox, args: string[], env: Record<string, string> = {}): { ms: number; stdout: string } {
  const t0 = performance.now();
  const r = sb.spex(args, { env });
  const took = performance.now() - t0;
  if (r.code !== 0) throw new Error(`spex ${args.join(" ")} failed: ${r.stderr}`);
  return { ms: took, stdout: r.stdout };
}

function openTerminals(sb: Sandbox, n: number, session?: string): string[] {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const args = ["terminal", "new", "--json", ...(session && i % 2 === 0 ? ["--session", session] : []), "--", "sleep", "3600"];
    ids.push(JSON.parse(timed(sb, args).stdout).id);
  }
  return ids;
}

function terminalList(): string[][] {
  const rows: string[][] = [];
  for (const n of [10, 50]) {
    const sb = sandbox();
    try {
      const s = seedLive(sb, { slug: "beside", tmux: false });
      openTerminals(sb, n, s.id);
      // Two of them gone, two exited: every state must come back right.
      const listed = JSON.parse(timed(sb, ["terminal", "ls", "--json"]).stdout) as { tmuxSession: string; state: string }[];
      for (const t of listed.slice(0, 2)) sb.tmux(["kill-session", "-t", `=${t.tmuxSession}`]);
      for (const t of listed.slice(2, 4)) sb.tmux(["send-keys", "-t", `=${t.tmuxSession}:`, "C-c"]);
      spawnSync("sleep", ["0.5"]);
      const want = listed.map((t, i) => (i < 2 ? "gone" : i < 4 ? "exited" : "running"));
      const counter = tmuxCounter(sb.dir);
      const ours: number[] = [];
      const base: number[] = [];
      let processes = 0;
      let right = 0;
      for (let r = 0; r < RUNS; r++) {
        counter.reset();
        const got = timed(sb, ["terminal", "ls", "--json"], counter.env);
        ours.push(got.ms);
        processes = counter.count();
        const states = (JSON.parse(got.stdout) as { state: string }[]).map((t) => t.state);
        right = states.filter((st, i) => st === want[i]).length;
        // The baseline: the same listing, asking tmux once per terminal.
        const t0 = performance.now();
        for (const t of listed) spawnSync("tmux", ["-L", sb.tmuxSocket, "has-session", "-t", `=${t.tmuxSession}`]);
        base.push(timed(sb, ["--version"]).ms + performance.now() - t0);
      }
      rows.push([String(n), ms(median(ours)), String(processes), `${right}/${n}`, ms(median(base)), String(n), `${(median(ours) / median(base)).toFixed(2)}×`]);
    } finally {
      sb.cleanup();
    }
  }
  return rows;
}

function snapshotCost(): string[][] {
  const rows: string[][] = [];
  for (const sessions of [100, 1000]) {
    const sb = sandbox();
    try {
      const live = seedLive(sb, { slug: "working", tmux: false });
      for (let i = 1; i < sessions; i++) seedRecord(sb.home, sb.repo, { prompt: `session ${i} of the fleet`, status: "idle" });
      openTerminals(sb, 20, live.id);
      for (let i = 0; i < 20; i++) timed(sb, ["task", "new", `task ${i}`, "--json"]);
      timed(sb, ["reserve", "src/a", "src/b", "--session", live.id, "--json"]);
      const snaps: number[] = [];
      const lists: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        const snap = timed(sb, ["snapshot", "--json"]);
        snaps.push(snap.ms);
        const doc = JSON.parse(snap.stdout);
        if (doc.sessions.length !== sessions || doc.terminals.length !== 20 || doc.tasks.length !== 20) throw new Error("the snapshot is missing rows");
        lists.push(timed(sb, ["session", "ls", "--json", "--all"]).ms);
      }
      rows.push([String(sessions), ms(median(snaps)), ms(median(lists)), `${(median(snaps) / median(lists)).toFixed(2)}×`]);
    } finally {
      sb.cleanup();
    }
  }
  return rows;
}

function screenRead(): string[][] {
  const sb = sandbox();
  try {
    const s = seedLive(sb, { command: "sh -c 'seq 1 500; exec sleep 1000'" });
    spawnSync("sleep", ["0.3"]);
    const reads: number[] = [];
    const history: number[] = [];
    const startup: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      startup.push(timed(sb, ["--version"]).ms);
      const plain = timed(sb, ["session", "read", s.id, "--json"]);
      if (!JSON.parse(plain.stdout).screen.endsWith("500")) throw new Error("the screen is not the pane's");
      reads.push(plain.ms);
      history.push(timed(sb, ["session", "read", s.id, "--history", "400", "--styled", "--json"]).ms);
    }
    return [
      ["session read", ms(median(reads)), `${(median(reads) / median(startup)).toFixed(2)}×`],
      ["session read --history 400 --styled", ms(median(history)), `${(median(history) / median(startup)).toFixed(2)}×`],
      ["(bare startup: spex --version)", ms(median(startup)), "1.00×"],
    ];
  } finally {
    sb.cleanup();
  }
}

export default async function run(): Promise<void> {
  process.stdout.write("terminal ls --json (two gone, two exited, the rest running; every state checked)\n");
  process.stdout.write(table(["terminals", "terminal ls", "tmux processes", "states right", "has-session per terminal + startup", "processes", "ratio"], terminalList()));
  process.stdout.write("\nsnapshot --json against session ls --json --all, same store (20 terminals, 20 tasks, 2 leases)\n");
  process.stdout.write(table(["sessions", "snapshot", "ls --all", "ratio"], snapshotCost()));
  process.stdout.write("\nsession read, a pane of 500 lines\n");
  process.stdout.write(table(["what", "median", "× startup"], screenRead()));
}
