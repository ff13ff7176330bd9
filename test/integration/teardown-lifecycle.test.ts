// Teardown with an agent that behaves like Claude Code (the fake agent on
// PATH fires real hooks into the binary): stop while its exit hook writes,
// resume with --resume <native id>, and after-turn requests carried out by
// the Stop hook.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { type FakeAgents, installFakeAgents } from "../support/agents";
import { alive, hasTmux, json, recordFile } from "../support/teardown";

let sb: Sandbox;
let agents: FakeAgents;
beforeEach(() => {
  sb = sandbox();
  agents = installFakeAgents(sb);
});
afterEach(() => sb.cleanup());

const record = (id: string) => JSON.parse(readFileSync(recordFile(sb, id), "utf8"));

function newClaude(prompt: string): { id: string; pid: number; native: string; tmux: string } {
  const r = sb.spex(["session", "new", "--launcher", "claude", "--json", prompt]);
  if (r.code !== 0) throw new Error(r.stderr);
  const created = json(r.stdout);
  expect(created.ready).toBe(true);
  const rec = record(created.session_id);
  return { id: created.session_id, pid: Number(rec.agent_pid), native: rec.harness_session_id, tmux: rec.tmux_session };
}

function typeInto(tmux: string, text: string): void {
  sb.tmux(["send-keys", "-t", `=${tmux}:`, "-l", text]);
  sb.tmux(["send-keys", "-t", `=${tmux}:`, "Enter"]);
}

describe("with a hook-firing agent", () => {
  test("stop ends the agent by TERM while its own SessionEnd hook writes the record", async () => {
    const s = newClaude("work then stop");
    await waitFor(() => record(s.id).status === "idle", "the first turn to end");
    const r = sb.spex(["session", "stop", s.id, "--json"], { env: { SPEX_STOP_GRACE_MS: "20000" } });
    expect(r.stderr).toBe("");
    // "terminated", not "killed": the agent's exit hook got through the record lock while stop waited.
    expect(json(r.stdout)).toMatchObject({ leaf: "terminated", pid: s.pid });
    expect(agents.entries().some((e) => e.kind === "hook" && e.event === "SessionEnd" && e.status === 0)).toBe(true);
    // A hook that could not take the record lock would have logged its failure here.
    expect(existsSync(join(sb.home, "hooks.log")) ? readFileSync(join(sb.home, "hooks.log"), "utf8") : "").toBe("");
    expect(record(s.id)).toMatchObject({ stopped: true });
    expect(hasTmux(sb, s.tmux)).toBe(false);
  });

  test("resume relaunches a stopped claude session with --resume and its native id", async () => {
    const s = newClaude("remember this");
    expect(sb.spex(["session", "stop", s.id]).code).toBe(0);
    const r = sb.spex(["session", "resume", s.id, "--json"]);
    expect(r.stderr).toBe("");
    expect(json(r.stdout)).toMatchObject({ resumeArgs: ["--resume", s.native], ready: true, stopped: null });
    const resumed = agents.entries().filter((e) => e.kind === "argv").at(-1)!;
    expect(resumed.argv).toEqual(["--resume", s.native]);
    expect(record(s.id)).toMatchObject({ stopped: false, harness_session_id: s.native, launch_readiness_pending: "" });
    expect(alive(Number(record(s.id).agent_pid))).toBe(true);
  });

  test("resume refuses a running session unless --force, which stops it and relaunches", () => {
    const s = newClaude("keep going");
    const refused = sb.spex(["session", "resume", s.id, "--json"]);
    expect(json(refused.stdout).error.code).toBe("session_running");
    expect(alive(s.pid)).toBe(true);
    const forced = sb.spex(["session", "resume", s.id, "--force", "--json"]);
    expect(json(forced.stdout)).toMatchObject({ ready: true, stopped: { leaf: "terminated" } });
    expect(alive(s.pid)).toBe(false);
    expect(Number(record(s.id).agent_pid)).not.toBe(s.pid);
  });

  test("resume refuses a retired record: only close remains", () => {
    const s = newClaude("soon retired");
    expect(sb.spex(["session", "stop", s.id]).code).toBe(0);
    rmSync(record(s.id).worktree_path, { recursive: true, force: true });
    const r = sb.spex(["session", "resume", s.id, "--json"]);
    expect(json(r.stdout).error.code).toBe("record_retired");
    expect(sb.spex(["session", "close", s.id]).code).toBe(0);
  });

  test("done --then archive is carried out by the Stop hook at the end of the next turn; the pane keeps running", async () => {
    const s = newClaude("first turn");
    await waitFor(() => record(s.id).status === "idle", "the first turn to end");
    const asked = sb.spex(["session", "done", "--session", s.id, "--then", "archive", "--json"]);
    expect(json(asked.stdout)).toMatchObject({ afterTurn: "archive", changed: true });
    expect(record(s.id).after_turn).toBe("archive");
    typeInto(s.tmux, "last turn");
    await waitFor(() => record(s.id).archived === true, "the after-turn archive");
    expect(record(s.id).after_turn).toBe("");
    expect(alive(s.pid)).toBe(true);
    expect(readFileSync(recordFile(sb, s.id).replace("session.json", "last-screen.txt"), "utf8")).toContain("fake reply to: last turn");
  });

  test("done --then stop stops the agent once the turn ends, and --cancel withdraws a request", async () => {
    const s = newClaude("first turn");
    await waitFor(() => record(s.id).status === "idle", "the first turn to end");
    sb.spex(["session", "done", "--session", s.id, "--then", "stop"]);
    const cancelled = sb.spex(["session", "done", "--session", s.id, "--cancel", "--json"]);
    expect(json(cancelled.stdout)).toMatchObject({ afterTurn: "", changed: true });
    typeInto(s.tmux, "turn two");
    await waitFor(() => agents.entries().filter((e) => e.kind === "hook" && e.event === "Stop").length >= 2, "the second Stop hook");
    await waitFor(() => record(s.id).status === "idle", "idle");
    expect(alive(s.pid)).toBe(true);

    sb.spex(["session", "done", "--session", s.id, "--then", "stop"]);
    typeInto(s.tmux, "turn three");
    // The agent's own SessionEnd hook may mark it stopped first; the request is consumed when the stop lands.
    await waitFor(() => record(s.id).after_turn === "", "the after-turn stop");
    expect(record(s.id).stopped).toBe(true);
    expect(alive(s.pid)).toBe(false);
    expect(hasTmux(sb, s.tmux)).toBe(false);
  });

  test("internal after-turn with nothing requested does nothing", () => {
    const s = newClaude("idle");
    const r = sb.spex(["internal", "after-turn", s.id, "--json"]);
    expect(json(r.stdout)).toMatchObject({ outcome: "none" });
    expect(alive(s.pid)).toBe(true);
  });
});
