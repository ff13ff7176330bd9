// stop, interrupt and archive against real tmux sessions and real processes:
// the leaf guard decides dead / owned / unprovable with one probe.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { alive, hasTmux, json, recordFile, seedLive, sessionDir } from "../support/teardown";

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

const spexJson = (...args: string[]) => sb.spex(["session", ...args, "--json"]);
const recordOf = (id: string) => json(spexJson("show", id).stdout).record;

describe("stop", () => {
  test("a record whose agent pid names no live process stops record-only and its tmux session ends", () => {
    const s = seedLive(sb, { agent: "dead" });
    const r = spexJson("stop", s.id.slice(0, 8));
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toMatchObject({ id: s.id, leaf: "dead", tmux: "killed", stopped: true });
    expect(hasTmux(sb, s.tmuxName)).toBe(false);
    expect(recordOf(s.id)).toMatchObject({ stopped: true });
  });

  test("a live pid of another identity is refused leaf_unprovable and the process is still alive afterwards", () => {
    const s = seedLive(sb, { agent: "other" });
    try {
      const before = readFileSync(recordFile(sb, s.id));
      const r = spexJson("stop", s.id);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("[leaf_unprovable]");
      expect(json(r.stdout).error).toMatchObject({ code: "leaf_unprovable", pid: s.pid });
      expect(alive(s.pid)).toBe(true);
      expect(hasTmux(sb, s.tmuxName)).toBe(true);
      expect(readFileSync(recordFile(sb, s.id))).toEqual(before);
    } finally {
      s.stranger?.kill("SIGKILL");
    }
  });

  test("an owned agent is terminated, its tmux session ends and the record says stopped", () => {
    const s = seedLive(sb, { agent: "owned" });
    const r = spexJson("stop", s.id);
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toMatchObject({ leaf: "terminated", pid: s.pid });
    expect(alive(s.pid)).toBe(false);
    expect(hasTmux(sb, s.tmuxName)).toBe(false);
    expect(recordOf(s.id)).toMatchObject({ stopped: true, worktree_path: s.worktree });
  });

  test("stop ends its tmux session even when another session's name starts with its own, which keeps running", () => {
    const s = seedLive(sb, { agent: "owned" });
    // A neighbour on the same server whose name has this session's as a prefix (a longer suffix after a collision, say).
    const neighbour = `${s.tmuxName}0`;
    expect(sb.tmux(["new-session", "-d", "-s", neighbour, "sleep 600"]).status).toBe(0);
    const r = spexJson("stop", s.id);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(json(r.stdout)).toMatchObject({ leaf: "terminated", stopped: true });
    expect(hasTmux(sb, s.tmuxName)).toBe(false);
    expect(hasTmux(sb, neighbour)).toBe(true);
  });

  test("before readiness lands a pid in the record, stop uses the launch script's agent.pid", () => {
    const s = seedLive(sb, { agent: "owned", pidFileOnly: true });
    expect(recordOf(s.id).agent_pid).toBe("");
    const r = spexJson("stop", s.id);
    expect(json(r.stdout)).toMatchObject({ leaf: "terminated", pid: s.pid });
    expect(alive(s.pid)).toBe(false);
  });

  test("stop on a corrupt record refuses record_corrupt, names its residues and leaves the runtime running", () => {
    const s = seedLive(sb, { agent: "owned" });
    const file = recordFile(sb, s.id);
    writeFileSync(file, readFileSync(file, "utf8").replace('"status": "idle"', '"status": "sleeping"'));
    const r = spexJson("stop", s.id);
    expect(r.code).toBe(1);
    const err = json(r.stdout).error;
    expect(err.code).toBe("record_corrupt");
    expect(err.residues).toMatchObject({ tmuxSession: { name: s.tmuxName, present: true }, leaf: { pid: s.pid, alive: true } });
    expect(alive(s.pid)).toBe(true);
    expect(hasTmux(sb, s.tmuxName)).toBe(true);
  });
});

describe("interrupt", () => {
  test("interrupt sends the harness's interrupt key to the pane and the session keeps running", async () => {
    const s = seedLive(sb, { command: `sh -c 'trap "echo got-interrupt" INT; echo ready; while :; do sleep 0.1; done'` });
    await waitFor(() => sb.tmux(["capture-pane", "-p", "-t", `=${s.tmuxName}:`]).stdout.includes("ready"), "the pane to start");
    const before = readFileSync(recordFile(sb, s.id));
    const r = spexJson("interrupt", s.id);
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toMatchObject({ keys: ["C-c"], tmuxSession: s.tmuxName });
    await waitFor(() => sb.tmux(["capture-pane", "-p", "-t", `=${s.tmuxName}:`]).stdout.includes("got-interrupt"), "the trap to fire");
    expect(alive(s.pid)).toBe(true);
    expect(readFileSync(recordFile(sb, s.id))).toEqual(before);
  });

  test("interrupt of a working session declares it idle (no agent CLI reports an interrupted turn)", async () => {
    const s = seedLive(sb, { fields: { status: "active" } });
    expect(spexJson("interrupt", s.id).code).toBe(0);
    expect(recordOf(s.id)).toMatchObject({ status: "idle", stopped: false });
  });

  test("interrupt of a session without a tmux session refuses session_offline", () => {
    const s = seedLive(sb, { tmux: false });
    expect(json(spexJson("interrupt", s.id).stdout).error.code).toBe("session_offline");
  });
});

describe("archive", () => {
  test("archive captures the last screen first and a live pane keeps running", async () => {
    const s = seedLive(sb, { command: "sh -c 'echo the-last-words; exec sleep 1000'" });
    await waitFor(() => sb.tmux(["capture-pane", "-p", "-t", `=${s.tmuxName}:`]).stdout.includes("the-last-words"), "the pane to print");
    const r = spexJson("archive", s.id);
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toMatchObject({ archived: true, stopped: false, runtime: null });
    expect(readFileSync(join(sessionDir(sb, s.id), "last-screen.txt"), "utf8")).toContain("the-last-words");
    expect(alive(s.pid)).toBe(true);
    expect(hasTmux(sb, s.tmuxName)).toBe(true);
    expect(recordOf(s.id)).toMatchObject({ archived: true, stopped: false });
    expect(json(sb.spex(["session", "ls", "--json"]).stdout)).toEqual([]);
    expect(json(spexJson("show", s.id).stdout).lastScreen).toContain("the-last-words");
  });

  test("archive --stop captures the screen, then stops the agent and its tmux session", async () => {
    const s = seedLive(sb, { command: "sh -c 'echo before-stop; exec sleep 1000'" });
    await waitFor(() => sb.tmux(["capture-pane", "-p", "-t", `=${s.tmuxName}:`]).stdout.includes("before-stop"), "the pane to print");
    const r = spexJson("archive", s.id, "--stop");
    expect(json(r.stdout)).toMatchObject({ archived: true, stopped: true, runtime: { leaf: "terminated" } });
    expect(readFileSync(join(sessionDir(sb, s.id), "last-screen.txt"), "utf8")).toContain("before-stop");
    expect(alive(s.pid)).toBe(false);
    expect(hasTmux(sb, s.tmuxName)).toBe(false);
    expect(recordOf(s.id)).toMatchObject({ archived: true, stopped: true });
  });
});
