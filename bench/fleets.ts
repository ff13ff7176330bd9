// What the start-up figures run against (bench/startup.ts): a project of
// records for `ls` and completion, and a tmux server of panes for `live`,
// each pane showing a line no other shows, with the raw tmux floor and live's
// own command list as probes beside it.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { SPEX_BIN, type Sandbox, sandbox } from "../test/support/sandbox";
import { seedRecord } from "../test/support/records";
import { type PaneAt, PaneStage, lastLineOf, openPanes, waitForScreens } from "../test/support/panes";
import { type Probe } from "./support";
import { baseArgs, captureAllArgs } from "../lib/tmux";
import { LIST_FORMAT } from "../lib/live/discover";

/** A project with `count` sessions (records only, as `ls` reads them). */
export function fleetOfRecords(count: number): Sandbox {
  const sb = sandbox();
  for (let i = 0; i < count; i++) seedRecord(sb.home, sb.repo, { prompt: `fix the flaky test number ${i} in the payments service`, name: `task-${i}`, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() });
  return sb;
}

export interface PaneFleet {
  sb: Sandbox;
  /** The environment `live` runs in: the fleet's server and an empty stand-in for the user's own. */
  env: Record<string, string>;
  /** What each pane shows last, by pane id. */
  expected: Map<string, string>;
  /** The floor: one tmux process that lists every pane and captures every screen. */
  floor: Probe;
  /** The command list live itself sends (its list format, a marker line after each screen), from outside spex. */
  marked: Probe;
  cleanup(): void;
}

/** `panes` panes on a tmux server of the sandbox's own, each showing a line no other shows. */
export async function fleetOfPanes(panes: number): Promise<PaneFleet> {
  const sb = sandbox();
  const standIn = `${sb.tmuxSocket}-user`;
  const kinds: Array<(i: number) => PaneAt & { line: string }> = [
    (i) => ({ text: `build ${i}\nstep ${i} of ${panes}:  100%`, line: `step ${i} of ${panes}: 100%` }),
    (i) => ({ command: "bash", text: `make\ndev@box:~/p${i}$ `, line: `dev@box:~/p${i}$` }),
    (i) => ({ command: "apt", text: `Install pkg-${i}? [Y/n]`, line: `Install pkg-${i}? [Y/n]` }),
  ];
  const shows = Array.from({ length: panes }, (_, i) => kinds[i % kinds.length]!(i));
  const ids = openPanes(new PaneStage(join(sb.dir, "stage")), sb.tmuxSocket, "bench", shows, { width: 120, height: 30 });
  const expected = new Map(ids.map((id, i) => [id, shows[i]!.line]));
  await waitForScreens(sb.tmuxSocket, expected);
  const list = ["list-panes", "-a", "-F", "#{session_name}\x1f#{window_index}\x1f#{pane_index}\x1f#{pane_id}\x1f#{pane_current_command}\x1f#{pane_current_path}"];
  const floorArgs = ["-u", "-L", sb.tmuxSocket, ...list, ...ids.flatMap((id) => [";", "capture-pane", "-p", "-J", "-t", id])];
  return {
    sb,
    env: { ...sb.env, SPEX_TMUX_SERVERS: `${sb.tmuxSocket},${standIn}` },
    expected,
    floor: { name: "raw tmux list + captures", cmd: "tmux", args: floorArgs, env: sb.env },
    marked: { name: "live's own tmux command list", cmd: "tmux", args: [...baseArgs(sb.tmuxSocket), ...captureAllArgs(["list-panes", "-a", "-F", LIST_FORMAT], "@@bench0000@@")], env: sb.env },
    cleanup() {
      spawnSync("tmux", ["-L", standIn, "kill-server"]);
      sb.cleanup();
    },
  };
}

/** How many rows of `live --json` show their pane's own last line. */
export function liveRowsRight(fleet: PaneFleet): number {
  const r = spawnSync(SPEX_BIN, ["session", "live", "--json"], { env: fleet.env, cwd: fleet.sb.dir, encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`live failed: ${r.stderr}`);
  const rows = JSON.parse(r.stdout) as Array<{ paneId: string; lastVisibleLine: string | null }>;
  return rows.filter((row) => fleet.expected.get(row.paneId) === row.lastVisibleLine).length;
}

/** The floor's own screens are right too (the yardstick is checked like the figure). */
export function floorRight(fleet: PaneFleet): number {
  const r = spawnSync(fleet.floor.cmd, fleet.floor.args, { env: fleet.floor.env, encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`the raw tmux list failed: ${r.stderr}`);
  return [...fleet.expected.values()].filter((line) => r.stdout.split("\n").some((l) => lastLineOf(l) === line)).length;
}
