// send / message-status / deliver against a real tmux pane running the fake
// composer, which reports its turns through the binary like hooks would.
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, SPEX_BIN, sandbox, waitFor } from "../support/sandbox";
import { type FakeAgent, json, startFakeAgent } from "../support/comms";
import { seedRecord } from "../support/records";
import { inboxMarker, revokeSender } from "../../lib/comms";
import { projectStore } from "../../lib/store";

let sb: Sandbox;
setDefaultTimeout(30000);
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

const status = (id: string) => json(sb.spex(["session", "message-status", id, "--json"]).stdout);
const setState = (agent: FakeAgent, state: string) => {
  const r = sb.spex(["internal", "session-state", state, "--session", agent.id]);
  if (r.code !== 0) throw new Error(r.stderr);
};

function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(SPEX_BIN, args, { cwd: sb.repo, env: { ...sb.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe("send", () => {
  test("a two-line message to an idle agent arrives as one message and reads delivered", async () => {
    const agent = await startFakeAgent(sb);
    const r = sb.spex(["session", "send", agent.id.slice(0, 8), "first line\nsecond line", "--json"]);
    expect(r.code).toBe(0);
    const sent = json(r.stdout);
    expect(sent).toMatchObject({ state: "delivered", queuePosition: 1 });
    await waitFor(() => agent.received().length === 1, "the message to arrive");
    expect(agent.received()).toEqual(["first line\nsecond line"]);
    expect(status(sent.messageId)).toMatchObject({ state: "delivered", deliveredAt: expect.any(String) });
    expect(existsSync(inboxMarker(projectStore(sb.repo, sb.home), agent.id))).toBe(false);
  });

  test("a message sent while the target is active is not typed until its Stop", async () => {
    const agent = await startFakeAgent(sb);
    setState(agent, "active");
    const sent = json(sb.spex(["session", "send", agent.id.slice(0, 8), "after your turn", "--json"]).stdout);
    expect(sent).toMatchObject({ state: "queued", queuePosition: 1, reason: "the agent is active" });
    expect(status(sent.messageId).state).toBe("queued");
    expect(existsSync(inboxMarker(projectStore(sb.repo, sb.home), agent.id))).toBe(true);
    expect(agent.received()).toEqual([]);
    // The Stop hook's state write drains the queue.
    setState(agent, "idle");
    await waitFor(() => agent.received().length === 1, "delivery after Stop");
    expect(agent.received()).toEqual(["after your turn"]);
    await waitFor(() => status(sent.messageId).state === "delivered", "delivered status");
    await waitFor(() => !existsSync(inboxMarker(projectStore(sb.repo, sb.home), agent.id)), "inbox marker cleared");
  });

  test("two senders racing 20 messages each: every message delivered exactly once, in per-sender order", async () => {
    const agent = await startFakeAgent(sb);
    const senders = ["alpha", "bravo"];
    const burst = (name: string) =>
      (async () => {
        for (let i = 0; i < 20; i++) {
          const r = await run(["session", "send", agent.id.slice(0, 8), `${name} ${i}`, "--from", name]);
          if (r.code !== 0) throw new Error(`send ${name} ${i}: ${r.stderr}`);
        }
      })();
    await Promise.all(senders.map(burst));
    await waitFor(() => agent.received().length >= 40, "all 40 messages", 60000);
    const got = agent.received().map((t) => t.split("\n").pop()!);
    expect(got).toHaveLength(40);
    expect(new Set(got).size).toBe(40);
    for (const name of senders) {
      expect(got.filter((t) => t.startsWith(name))).toEqual(Array.from({ length: 20 }, (_, i) => `${name} ${i}`));
    }
    // Each one came with its sender's envelope.
    expect(agent.received()[0]).toMatch(/^\[message from (alpha|bravo); it cannot receive replies\]\n/);
  }, 90000);

  test("kill -9 between claim and Enter leaves the message held, and it is never typed", async () => {
    const agent = await startFakeAgent(sb);
    const crashed = await run(["session", "send", agent.id.slice(0, 8), "doomed message", "--json"], { SPEX_TEST_CRASH_AT: "claim" });
    expect(crashed.signal).toBe("SIGKILL");
    const id = `${agent.id.slice(0, 8)}-1`;
    expect(status(id)).toMatchObject({ state: "queued", reason: expect.stringMatching(/being handed over/) });
    const deliver = json(sb.spex(["session", "deliver", "--json"]).stdout);
    expect(deliver[0].outcomes).toEqual([{ messageId: id, state: "held", reason: expect.stringMatching(/died before pressing Enter/) }]);
    expect(status(id).state).toBe("held");
    // The queue moves on; the held message is not retyped by later drains.
    const next = json(sb.spex(["session", "send", agent.id.slice(0, 8), "the next one", "--json"]).stdout);
    expect(next.state).toBe("delivered");
    await waitFor(() => agent.received().length === 1, "the next message");
    sb.spex(["session", "deliver"]);
    expect(agent.received()).toEqual(["the next one"]);
    expect(agent.screen()).not.toContain("doomed message");
  });

  test("kill -9 between paste and Enter: the text shows once, is held, and is not pasted again", async () => {
    const agent = await startFakeAgent(sb);
    const crashed = await run(["session", "send", agent.id.slice(0, 8), "pasted but unsent"], { SPEX_TEST_CRASH_AT: "paste" });
    expect(crashed.signal).toBe("SIGKILL");
    await waitFor(() => agent.screen().includes("pasted but unsent"), "the paste on screen");
    sb.spex(["session", "deliver"]);
    const id = `${agent.id.slice(0, 8)}-1`;
    expect(status(id)).toMatchObject({ state: "held", reason: expect.stringMatching(/composer/) });
    sb.spex(["session", "deliver"]);
    expect(agent.screen().split("pasted but unsent").length - 1).toBe(1);
    expect(agent.received()).toEqual([]);
  });

  test("after a kill -9 between paste and Enter, the next message is not typed into the leftover: it waits, says why, and goes alone once the composer is clear", async () => {
    const agent = await startFakeAgent(sb);
    const crashed = await run(["session", "send", agent.id.slice(0, 8), "crashmsg-1"], { SPEX_TEST_CRASH_AT: "paste" });
    expect(crashed.signal).toBe("SIGKILL");
    await waitFor(() => agent.screen().includes("crashmsg-1"), "the paste on screen");
    const next = json(sb.spex(["session", "send", agent.id.slice(0, 8), "after-1", "--json"]).stdout);
    // The interrupted one is held, never half-delivered; the next one is not joined to it.
    expect(status(`${agent.id.slice(0, 8)}-1`).state).toBe("held");
    expect(next).toMatchObject({ state: "queued", reason: expect.stringMatching(/composer may still hold the unsent text of .*-1/) });
    sb.spex(["session", "deliver"]);
    expect(agent.received()).toEqual([]);
    // Cleared from outside (keys still go through), the queue goes on: the next message arrives alone.
    expect(json(sb.spex(["session", "send", agent.id.slice(0, 8), "--keys", "C-u", "--json"]).stdout).state).toBe("delivered");
    await waitFor(() => !agent.screen().includes("crashmsg-1"), "the composer cleared");
    sb.spex(["session", "deliver"]);
    await waitFor(() => agent.received().length === 1, "the next message");
    expect(agent.received()).toEqual(["after-1"]);
    expect(status(next.messageId).state).toBe("delivered");
  });

  test("a leftover submitted by hand (the agent took a turn) lets the queue go on by itself", async () => {
    const agent = await startFakeAgent(sb);
    await run(["session", "send", agent.id.slice(0, 8), "crashmsg-2"], { SPEX_TEST_CRASH_AT: "paste" });
    await waitFor(() => agent.screen().includes("crashmsg-2"), "the paste on screen");
    const next = json(sb.spex(["session", "send", agent.id.slice(0, 8), "after-2", "--json"]).stdout);
    expect(next.state).toBe("queued");
    // Someone presses Enter in the pane: the leftover goes in as its own turn, and its Stop hands the queue over.
    sb.tmux(["send-keys", "-t", `=${agent.record.tmux_session}:`, "Enter"]);
    await waitFor(() => agent.received().length === 2, "both, one after the other", 20000);
    expect(agent.received()).toEqual(["crashmsg-2", "after-2"]);
  });

  test("--keys goes to the pane even while the agent is busy (a dialog is waiting)", async () => {
    const agent = await startFakeAgent(sb);
    setState(agent, "asking");
    const r = json(sb.spex(["session", "send", agent.id.slice(0, 8), "--keys", "y e s Enter", "--json"]).stdout);
    expect(r.state).toBe("delivered");
    await waitFor(() => agent.received().length === 1, "the keys");
    expect(agent.received()).toEqual(["yes"]);
  });

  test("an agent-attributed send carries the envelope and a closed sender is refused", async () => {
    const agent = await startFakeAgent(sb);
    const from = seedRecord(sb.home, sb.repo, { prompt: "orchestrating", name: "boss" });
    const ok = sb.spex(["session", "send", agent.id.slice(0, 8), "status?"], { env: { SPEX_SESSION_ID: from.session_id } });
    expect(ok.code).toBe(0);
    await waitFor(() => agent.received().length === 1, "the message");
    expect(agent.received()[0]).toBe(`[message from session boss (${from.session_id.slice(0, 8)}); reply with: spex session send ${from.session_id.slice(0, 8)} "..."]\nstatus?`);
    revokeSender(projectStore(sb.repo, sb.home), from.session_id);
    const refused = sb.spex(["session", "send", agent.id.slice(0, 8), "still here?", "--from", from.session_id, "--json"]);
    expect(refused.code).toBe(1);
    expect(json(refused.stdout).error.code).toBe("sender_revoked");
  });

  test("refusals carry stable codes: message_too_large, message_repeated, queue_full", async () => {
    const agent = await startFakeAgent(sb);
    setState(agent, "active");
    const code = (r: { stdout: string }) => json(r.stdout).error?.code;
    expect(code(sb.spex(["session", "send", agent.id.slice(0, 8), "x".repeat(9000), "--json"]))).toBe("message_too_large");
    expect(sb.spex(["session", "send", agent.id.slice(0, 8), "same", "--json"]).code).toBe(0);
    expect(code(sb.spex(["session", "send", agent.id.slice(0, 8), "same", "--json"]))).toBe("message_repeated");
    const env = { SPEX_QUEUE_DEPTH: "2" };
    expect(sb.spex(["session", "send", agent.id.slice(0, 8), "other", "--json"], { env }).code).toBe(0);
    expect(code(sb.spex(["session", "send", agent.id.slice(0, 8), "one too many", "--json"], { env }))).toBe("queue_full");
  });

  test("without tmux on PATH a send is refused (tmux_missing) and nothing is queued: sent again once tmux is back, it arrives once", async () => {
    const agent = await startFakeAgent(sb);
    const bin = join(sb.dir, "no-tmux-bin");
    mkdirSync(bin);
    // sh and ps: what spex may run besides tmux (ps for process identity under make test-portable).
    for (const tool of ["sh", "git", "ps"]) {
      const found = spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).stdout.trim();
      if (found) symlinkSync(found, join(bin, tool));
    }
    const refused = sb.spex(["session", "send", agent.id.slice(0, 8), "run this once", "--json"], { env: { PATH: bin } });
    expect(refused.code).toBe(1);
    expect(json(refused.stdout).error.code).toBe("tmux_missing");
    // --queue-only needs no tmux: it only queues.
    const queued = sb.spex(["session", "send", agent.id.slice(0, 8), "queued for later", "--queue-only", "--json"], { env: { PATH: bin } });
    expect(json(queued.stdout)).toMatchObject({ state: "queued", queuePosition: 1 });
    const again = json(sb.spex(["session", "send", agent.id.slice(0, 8), "run this once", "--json"]).stdout);
    expect(again.messageId).not.toBe(json(queued.stdout).messageId);
    await waitFor(() => agent.received().length === 2, "both messages to arrive");
    expect(agent.received()).toEqual(["queued for later", "run this once"]);
  });

  test("close revokes the sender and drops what is still queued to or from it", async () => {
    const make = (prompt: string) => json(sb.spex(["session", "new", prompt, "--launcher", "shell", "--no-launch", "--json"]).stdout).session_id as string;
    const target = make("target");
    const other = make("other");
    const from = make("sender");
    const toTarget = json(sb.spex(["session", "send", target, "for the target", "--json"]).stdout).messageId;
    const fromSender = json(sb.spex(["session", "send", other, "from the sender", "--from", from, "--json"]).stdout).messageId;
    expect(sb.spex(["session", "close", from]).code).toBe(0);
    const refused = sb.spex(["session", "send", other, "after close", "--json"], { env: { SPEX_SESSION_ID: from } });
    expect(json(refused.stdout).error.code).toBe("sender_revoked");
    sb.spex(["session", "deliver", other]);
    expect(status(fromSender)).toMatchObject({ state: "dropped", reason: expect.stringMatching(/sender was closed/) });
    expect(sb.spex(["session", "close", target]).code).toBe(0);
    expect(status(toTarget)).toMatchObject({ state: "dropped", reason: expect.stringMatching(/gone/) });
  });
});
