// `spex session live --json` at 10, 50 and 200 panes, each pane showing text
// of its own (DESIGN.md §11: 100 panes in ≤ 3 tmux processes and ≤ 300 ms; at
// 200 panes ≤ 0.25 × a capture-per-pane baseline), against the approach other
// tools take: one `tmux list-panes`, then one `tmux capture-pane` process per
// pane, run in the same bench. Both sides are checked, not only timed: a
// screen is right when the row's last line and status are the pane's own.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { SPEX_BIN, type Sandbox, sandbox } from "../test/support/sandbox";
import { type PaneAt, PaneStage, lastLineOf, openPanes, waitForScreens } from "../test/support/panes";
import { median, ms, table, timeCommand, tmuxCounter } from "./support";

const SIZES = [10, 50, 200];
const RUNS = 5;

interface Expected {
  line: string;
  status: string;
}

/** Panes in three statuses, every one with a line no other pane shows. */
function fill(sb: Sandbox, panes: number): Map<string, Expected> {
  const kinds: Array<(i: number) => PaneAt & Expected> = [
    (i) => ({ text: `build ${i}\nstep ${i} of ${panes}:  100%  #{pane_id}`, line: `step ${i} of ${panes}: 100% #{pane_id}`, status: "active" }),
    (i) => ({ command: "bash", text: `make\ndev@box:~/p${i}$ `, line: `dev@box:~/p${i}$`, status: "idle" }),
    (i) => ({ command: "apt", text: `Install pkg-${i}? [Y/n]`, line: `Install pkg-${i}? [Y/n]`, status: "needs_attention" }),
  ];
  const shows = Array.from({ length: panes }, (_, i) => kinds[i % kinds.length]!(i));
  const ids = openPanes(new PaneStage(join(sb.dir, "stage")), sb.tmuxSocket, "bench", shows, { width: 120, height: 30 });
  return new Map(ids.map((id, i) => [id, { line: shows[i]!.line, status: shows[i]!.status }]));
}

/** One list, then one capture-pane process per pane; the screens by pane id. */
function perPaneBaseline(sb: Sandbox): { time: number; processes: number; screens: Map<string, string> } {
  const base = ["-L", sb.tmuxSocket];
  const t0 = performance.now();
  const list = spawnSync("tmux", [...base, "list-panes", "-a", "-F", "#{pane_id}"], { encoding: "utf8" });
  const ids = list.stdout.split("\n").filter(Boolean);
  const screens = new Map<string, string>();
  for (const id of ids) screens.set(id, spawnSync("tmux", [...base, "capture-pane", "-p", "-J", "-t", id], { encoding: "utf8" }).stdout);
  return { time: performance.now() - t0, processes: ids.length + 1, screens };
}

function liveRows(env: Record<string, string>, cwd: string): Array<{ paneId: string; lastVisibleLine: string | null; status: string }> {
  const r = spawnSync(SPEX_BIN, ["session", "live", "--json"], { env, cwd, encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`live failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

export default async function run(): Promise<void> {
  const rows: string[][] = [];
  const ratios: string[] = [];
  for (const panes of SIZES) {
    const sb = sandbox();
    const userStandIn = `${sb.tmuxSocket}-user`;
    try {
      const expected = fill(sb, panes);
      await waitForScreens(sb.tmuxSocket, new Map([...expected].map(([id, e]) => [id, e.line])));
      const c = tmuxCounter(sb.dir);
      const env = { ...sb.env, ...c.env, SPEX_TMUX_SERVERS: `${sb.tmuxSocket},${userStandIn}` };
      const seen = liveRows(env, sb.dir);
      const right = seen.filter((r) => {
        const e = expected.get(r.paneId);
        return e && r.lastVisibleLine === e.line && r.status === e.status;
      }).length;
      c.reset();
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push(timeCommand(SPEX_BIN, ["session", "live", "--json"], { env, cwd: sb.dir }));
      const spawned = c.count() / RUNS;
      const baseline: number[] = [];
      let baseProcs = 0;
      let baseRight = 0;
      for (let i = 0; i < RUNS; i++) {
        const b = perPaneBaseline(sb);
        baseline.push(b.time);
        baseProcs = b.processes;
        baseRight = [...expected].filter(([id, e]) => lastLineOf(b.screens.get(id) ?? "") === e.line).length;
      }
      const startup: number[] = [];
      for (let i = 0; i < RUNS; i++) startup.push(timeCommand(SPEX_BIN, ["--version"], { env: sb.env }));
      const ratio = median(times) / median(baseline);
      rows.push([
        String(panes),
        ms(median(times)),
        String(spawned),
        `${right} / ${panes}`,
        ms(median(baseline)),
        String(baseProcs),
        `${baseRight} / ${panes}`,
        `${ratio.toFixed(2)} ×`,
        ms(median(startup)),
      ]);
      if (panes === 200) ratios.push(`live at 200 panes = ${ratio.toFixed(2)} × the capture-per-pane baseline (budget ≤ 0.25 ×), ${right} of ${panes} screens right`);
    } finally {
      spawnSync("tmux", ["-L", userStandIn, "kill-server"]);
      sb.cleanup();
    }
  }
  process.stdout.write(
    table(["panes", "live --json", "tmux procs", "screens right", "per-pane capture", "its procs", "its screens right", "live / per-pane", "spex startup"], rows) +
      `medians of ${RUNS} runs; live scans two servers (the sandbox's and an empty stand-in for the user's default); a screen is right when its row's last line and status are the pane's own (for the baseline: its captured last line)\n` +
      ratios.map((r) => `${r}\n`).join(""),
  );
}

if (require.main === module) void run();
