// wait: woken by file notifications (the poll is switched off here, so only
// the notification path can wake it), cursor-backed, exit 0/1/2.
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { spawn } from "node:child_process";
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, SPEX_BIN, sandbox, waitFor } from "../support/sandbox";
import { json, startFakeAgent } from "../support/comms";
import { seedRecord } from "../support/records";
import { processIdentity } from "../../lib/proc";
import { projectStore } from "../../lib/store";
import { eventsAfter } from "../../lib/comms";

let sb: Sandbox;
setDefaultTimeout(30000);
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

// Only a file notification can wake a waiter within a test's lifetime.
const NO_POLL = { SPEX_WAIT_POLL_MS: "600000" };

interface Waiter {
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
  armed(): Promise<void>;
}

function startWait(args: string[], env: Record<string, string> = {}): Waiter {
  const armedFile = join(sb.dir, `armed-${Math.random().toString(36).slice(2)}`);
  const child = spawn(SPEX_BIN, ["session", "wait", ...args], { cwd: sb.repo, env: { ...sb.env, ...NO_POLL, SPEX_TEST_WAIT_ARMED: armedFile, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
  return { done, armed: () => waitFor(() => existsSync(armedFile), "the waiter to arm").then(() => undefined) };
}

const setState = (id: string, state: string, env: Record<string, string> = {}) => {
  const r = sb.spex(["internal", "session-state", state, "--session", id], { env });
  if (r.code !== 0) throw new Error(r.stderr);
};

describe("wait", () => {
  test("returns on the target's next state change, through a file notification", async () => {
    const s = seedRecord(sb.home, sb.repo, { status: "active" });
    const w = startWait([s.session_id.slice(0, 8), "--json"]);
    await w.armed();
    setState(s.session_id, "idle");
    const r = await w.done;
    expect(r.code).toBe(0);
    const out = json(r.stdout);
    expect(out.outcome).toBe("reached");
    expect(out.events).toEqual([expect.objectContaining({ kind: "state", status: "idle", prev: "active", session: s.session_id })]);
  });

  test("exits 1 when the timeout passes first", async () => {
    const s = seedRecord(sb.home, sb.repo, { status: "active" });
    const r = sb.spex(["session", "wait", s.session_id.slice(0, 8), "--timeout", "0.3", "--json"]);
    expect(r.code).toBe(1);
    expect(json(r.stdout)).toMatchObject({ outcome: "timed_out", reached: false });
  });

  test("exits 2 when the store is removed while waiting", async () => {
    const s = seedRecord(sb.home, sb.repo, { status: "active" });
    const w = startWait([s.session_id.slice(0, 8), "--json"]);
    await w.armed();
    rmSync(projectStore(sb.repo, sb.home).dir, { recursive: true, force: true });
    const r = await w.done;
    expect(r.code).toBe(2);
    expect(json(r.stdout).outcome).toBe("gone");
  });

  test("a cursor resumes exactly where the previous wait stopped", async () => {
    const s = seedRecord(sb.home, sb.repo, { status: "active" });
    const sel = s.session_id.slice(0, 8);
    const first = startWait([sel, "--cursor", "script", "--json"]);
    await first.armed();
    setState(s.session_id, "idle");
    expect(json((await first.done).stdout).events.map((e: any) => e.status)).toEqual(["idle"]);
    // Two changes while nobody waits: the next wait gets both at once, in order.
    setState(s.session_id, "active");
    setState(s.session_id, "parked");
    const second = sb.spex(["session", "wait", sel, "--cursor", "script", "--timeout", "5", "--json"], { env: NO_POLL });
    expect(second.code).toBe(0);
    expect(json(second.stdout).events.map((e: any) => e.status)).toEqual(["active", "parked"]);
    // Without a cursor a wait starts from now.
    expect(sb.spex(["session", "wait", sel, "--timeout", "0.2"]).code).toBe(1);
  });

  test("a caller waiting on a session it just messaged is not woken by its own message", async () => {
    const agent = await startFakeAgent(sb);
    const caller = seedRecord(sb.home, sb.repo, { prompt: "orchestrator" });
    const asCaller = { SPEX_SESSION_ID: caller.session_id };
    setState(agent.id, "active");
    // An older event the caller never consumed must not wake it either.
    setState(agent.id, "parked");
    setState(agent.id, "active");
    expect(sb.spex(["session", "send", agent.id.slice(0, 8), "your next task"], { env: asCaller }).code).toBe(0);
    const quiet = sb.spex(["session", "wait", agent.id.slice(0, 8), "--timeout", "0.3", "--json"], { env: { ...asCaller, ...NO_POLL } });
    expect(quiet.code).toBe(1);
    const w = startWait([agent.id.slice(0, 8), "--idle", "--json"], asCaller);
    await w.armed();
    setState(agent.id, "idle"); // the turn ends: the queued message is handed over, then the agent reports its own turn
    const r = await w.done;
    expect(r.code).toBe(0);
    expect(json(r.stdout).sessions[0]).toMatchObject({ atRest: true, pendingMessages: 0 });
    expect(agent.received()).toEqual([expect.stringContaining("your next task")]);
  });

  test("--idle returns at once for a session already at rest, and waits for every target with --all", async () => {
    const a = seedRecord(sb.home, sb.repo, { status: "idle", prompt: "a" });
    const b = seedRecord(sb.home, sb.repo, { status: "active", prompt: "b" });
    expect(sb.spex(["session", "wait", a.session_id.slice(0, 8), "--idle", "--timeout", "5"]).code).toBe(0);
    const w = startWait([a.session_id.slice(0, 8), b.session_id.slice(0, 8), "--idle", "--all", "--json"]);
    await w.armed();
    setState(b.session_id, "awaiting");
    const r = await w.done;
    expect(r.code).toBe(0);
    expect(json(r.stdout).sessions.map((s: any) => s.atRest)).toEqual([true, true]);
  });

  test("state writes from many processes get distinct, increasing sequence numbers", async () => {
    const s = seedRecord(sb.home, sb.repo, { status: "idle" });
    const states = ["active", "idle", "parked", "asking", "error", "active", "idle", "awaiting"];
    await Promise.all(
      states.map(
        (st) =>
          new Promise<void>((resolve) => {
            spawn(SPEX_BIN, ["internal", "session-state", st, "--session", s.session_id], { cwd: sb.repo, env: sb.env }).on("close", () => resolve());
          }),
      ),
    );
    const seqs = eventsAfter(projectStore(sb.repo, sb.home), s.session_id, 0).map((e) => e.seq);
    expect(seqs.length).toBeGreaterThan(1);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
  });
});

describe("wait: death, --until, self", () => {
  const kill9 = (pid: number) => spawnSync("kill", ["-9", String(pid)]);

  test("an agent killed by -9 mid-turn ends the wait with died (exit 2) long before the timeout", async () => {
    const agent = await startFakeAgent(sb, {}, {}, { remainOnExit: true, recordPid: true });
    setState(agent.id, "active");
    const w = startWait([agent.id.slice(0, 8), "--idle", "--timeout", "20", "--json"]);
    await w.armed();
    kill9(agent.pid());
    const r = await w.done;
    expect(r.code).toBe(2);
    const out = json(r.stdout);
    expect(out).toMatchObject({ outcome: "died", reached: false });
    expect(out.waitedMs).toBeLessThan(10000);
    expect(out.sessions[0]).toMatchObject({ died: true, liveness: "offline", diedReason: expect.stringMatching(/not running/) });
  });

  test("an agent that died while idle is reported died, not reached, with its liveness", async () => {
    const agent = await startFakeAgent(sb, {}, {}, { remainOnExit: true, recordPid: true });
    const pid = agent.pid();
    kill9(pid);
    // Dead as spex sees it: a zombie counts as gone (kill -0 still succeeds until tmux reaps it, which a loaded machine delays).
    await waitFor(() => processIdentity(pid) === undefined, "the agent to die");
    const r = sb.spex(["session", "wait", agent.id.slice(0, 8), "--idle", "--timeout", "5", "--json"]);
    expect(r.code).toBe(2);
    expect(json(r.stdout)).toMatchObject({ outcome: "died", sessions: [expect.objectContaining({ died: true, liveness: "offline" })] });
    // The store is still there: "gone" stays its own outcome.
    expect(json(r.stdout).outcome).not.toBe("gone");
  });

  test("a tmux session that disappears during an event wait ends it with died", async () => {
    const agent = await startFakeAgent(sb, { tmux_session: "vanishing" });
    const w = startWait([agent.id.slice(0, 8), "--timeout", "20", "--json"]);
    await w.armed();
    sb.tmux(["kill-session", "-t", "=vanishing"]);
    const r = await w.done;
    expect(r.code).toBe(2);
    expect(json(r.stdout)).toMatchObject({ outcome: "died", sessions: [expect.objectContaining({ died: true, diedReason: expect.stringMatching(/tmux session/) })] });
  });

  test("--until returns when the session shows one of the given display statuses", async () => {
    const agent = await startFakeAgent(sb, {}, {}, { recordPid: true });
    setState(agent.id, "active");
    const w = startWait([agent.id.slice(0, 8), "--until", "asking,review", "--timeout", "20", "--json"]);
    await w.armed();
    setState(agent.id, "parked");
    setState(agent.id, "asking");
    const r = await w.done;
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toMatchObject({ outcome: "reached", sessions: [expect.objectContaining({ display: "asking" })] });
    // Already there: at once.
    const again = sb.spex(["session", "wait", agent.id.slice(0, 8), "--until", "asking", "--timeout", "5", "--json"]);
    expect(again.code).toBe(0);
  });

  test("--until refuses unknown statuses and --idle beside it, before waiting", async () => {
    const s = seedRecord(sb.home, sb.repo, { status: "active" });
    for (const args of [["--until", "finished"], ["--until", "idle,workin"], ["--until", "idle", "--idle"], ["--until", ""]]) {
      const r = sb.spex(["session", "wait", s.session_id.slice(0, 8), ...args, "--timeout", "30", "--json"]);
      expect({ args, code: r.code, error: json(r.stdout).error?.code }).toEqual({ args, code: 2, error: "usage" });
    }
  });

  test("a session cannot wait on itself (wait_self)", async () => {
    const me = seedRecord(sb.home, sb.repo, { status: "active", prompt: "me" });
    const other = seedRecord(sb.home, sb.repo, { status: "active", prompt: "other" });
    const r = sb.spex(["session", "wait", me.session_id.slice(0, 8), other.session_id.slice(0, 8), "--timeout", "30", "--json"], { env: { SPEX_SESSION_ID: me.session_id } });
    expect(r.code).toBe(1);
    expect(json(r.stdout).error.code).toBe("wait_self");
  });
});
