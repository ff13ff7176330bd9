// `live` at fleet scale (DESIGN.md §10): 56 panes on two tmux servers, each
// showing its own text, governed and not, in every status. Every row must
// carry its own pane's last line and the status that screen and record give.
// (Up to tmux pane %2 a broken capture marker still worked; past it every
// screen was filed under the wrong pane.)
import { afterEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Lifecycle } from "../../lib/record";
import { type Sandbox, sandbox } from "../support/sandbox";
import { seedRecord } from "../support/records";
import { type PaneAt, PaneStage, endPanes, openPanes, waitForScreens } from "../support/panes";

let sb: Sandbox;
let user = "";
afterEach(() => {
  if (user) spawnSync("tmux", ["-L", user, "kill-server"]);
  user = "";
  sb?.cleanup();
});

type Kind = "active" | "idle" | "attention" | "dead";
interface Expected {
  socket: string;
  paneId: string;
  lastVisibleLine: string;
  status: string;
}

/** A pane nobody governs, of one kind, with text no other pane shows (and format characters tmux must not touch). */
function plainPane(tag: string, kind: Kind): { pane: PaneAt; line: string; status: string } {
  switch (kind) {
    case "active":
      return { pane: { text: `started ${tag}\nstep ${tag}:  100%   done, #{pane_id} %H %3` }, line: `step ${tag}: 100% done, #{pane_id} %H %3`, status: "active" };
    case "idle":
      return { pane: { command: "bash", text: `ls\nREADME.md\n  dev@box:~/${tag}$  ` }, line: `dev@box:~/${tag}$`, status: "idle" };
    case "attention":
      return { pane: { command: "apt", text: `Reading ${tag}\nInstall ${tag} (42 MB)? [Y/n]` }, line: `Install ${tag} (42 MB)? [Y/n]`, status: "needs_attention" };
    case "dead":
      return { pane: { text: `${tag} finished, exit 0` }, line: `${tag} finished, exit 0`, status: "dead" };
  }
}

const KINDS: Kind[] = ["active", "idle", "attention", "dead"];
const LIFECYCLES: [Lifecycle, string][] = [
  ["idle", "idle"],
  ["asking", "needs_attention"],
  ["active", "active"],
  ["parked", "idle"],
  ["error", "needs_attention"],
  ["awaiting", "idle"],
  ["queued", "idle"],
  ["active", "active"],
];

function plainSession(stage: PaneStage, socket: string, session: string, count: number, out: Expected[]): void {
  const made = Array.from({ length: count }, (_, i) => plainPane(`${session}-${i}`, KINDS[i % 4]!));
  made.forEach((m, i) => (m.pane.split = i % 5 === 4));
  const ids = openPanes(stage, socket, session, made.map((m) => m.pane));
  ids.forEach((paneId, i) => out.push({ socket, paneId, lastVisibleLine: made[i]!.line, status: made[i]!.status }));
}

test("56 panes on two servers: every row has its own pane's last line and status", async () => {
  sb = sandbox();
  user = `${sb.tmuxSocket}-user`;
  const stage = new PaneStage(join(sb.dir, "stage"));
  const expected: Expected[] = [];

  // The spex server: 8 governed sessions of three panes (a window, then a window split in two), and 8 plain panes.
  LIFECYCLES.forEach(([lifecycle, status], g) => {
    const name = `gov-${g}`;
    const worktree = join(sb.repo, ".worktrees", name);
    mkdirSync(worktree, { recursive: true });
    seedRecord(sb.home, sb.repo, { worktree_path: worktree, tmux_socket: sb.tmuxSocket, tmux_session: name, status: lifecycle });
    const lines = [0, 1, 2].map((p) => `${name} pane ${p}: working on  item ${g * 3 + p}`);
    const panes: PaneAt[] = lines.map((text, p) => ({ text: `log of ${name}\n${text}`, split: p === 2 }));
    // An approval question on screen wins over the lifecycle a hook declared.
    if (g === 0) panes[1] = { text: "Copying files\nPress Enter to continue" };
    const ids = openPanes(stage, sb.tmuxSocket, name, panes, { cwd: worktree });
    ids.forEach((paneId, p) => {
      const attention = g === 0 && p === 1;
      expected.push({ socket: sb.tmuxSocket, paneId, lastVisibleLine: attention ? "Press Enter to continue" : lines[p]!.replace(/\s+/g, " "), status: attention ? "needs_attention" : status });
    });
  });
  plainSession(stage, sb.tmuxSocket, "plain", 8, expected);
  // The stand-in for the user's own server: 24 plain panes.
  plainSession(stage, user, "mine", 24, expected);
  expect(expected.length).toBe(56);

  for (const socket of [sb.tmuxSocket, user]) {
    const mine = expected.filter((e) => e.socket === socket);
    await waitForScreens(socket, new Map(mine.map((e) => [e.paneId, e.lastVisibleLine])));
    await endPanes(socket, mine.filter((e) => e.status === "dead").map((e) => e.paneId));
  }

  const env = { SPEX_TMUX_SERVERS: `${sb.tmuxSocket},${user}` };
  const r = sb.spex(["session", "live", "--json"], { env });
  expect(r.stderr).toBe("");
  const rows: any[] = JSON.parse(r.stdout);
  expect(rows).toHaveLength(56);
  const got = (e: Expected) => {
    const row = rows.find((x) => x.socket === e.socket && x.paneId === e.paneId);
    return { socket: e.socket, paneId: e.paneId, lastVisibleLine: row?.lastVisibleLine, status: row?.status };
  };
  // One comparison of the whole fleet: a failure lists every wrong row.
  expect(expected.map(got)).toEqual(expected);

  // bulk reads the same observation: every entry carries its own pane's line and status.
  const bulk = JSON.parse(sb.spex(["session", "bulk", "status", "--json"], { env }).stdout);
  const entries = new Map(bulk.entries.map((e: any) => [`${e.socket}\u0000${e.paneId}`, e]));
  expect(expected.map((e) => {
    const entry: any = entries.get(`${e.socket}\u0000${e.paneId}`);
    return { socket: e.socket, paneId: e.paneId, lastVisibleLine: entry?.lastVisibleLine, status: entry?.status };
  })).toEqual(expected);
});
