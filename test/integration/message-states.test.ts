// Message states (issue 13 item 7): a message from session A to session B is
// `answered` once B writes back to A (or names it with --reply-to), and a
// message to a stopped recipient stays queued saying why, until a resume.
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { installFakeAgents } from "../support/agents";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

function newAgent(s: Sandbox, prompt: string): string {
  const r = s.spex(["session", "new", "--launcher", "claude", "--json", prompt]);
  expect(r.stderr).toBe("");
  const c = JSON.parse(r.stdout);
  expect(c.ready).toBe(true);
  return c.session_id;
}

/** Claude Code sessions (the fake agent) in a fresh sandbox, each ready. */
function agentsFleet(prompts: string[]) {
  sb = sandbox();
  const agents = installFakeAgents(sb);
  writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ sessions: { maxActive: 20 } }));
  return { agents, ids: prompts.map((p) => newAgent(sb, p)) };
}

function send(s: Sandbox, from: string, to: string, text: string, extra: string[] = []) {
  const r = s.spex(["session", "send", to, text, "--json", ...extra], { env: { SPEX_SESSION_ID: from } });
  return { code: r.code, stderr: r.stderr, body: JSON.parse(r.stdout) };
}

function status(s: Sandbox, id: string) {
  return JSON.parse(s.spex(["session", "message-status", id, "--json"]).stdout);
}

async function delivered(s: Sandbox, id: string): Promise<void> {
  await waitFor(() => status(s, id).state === "delivered", `${id} delivered`, 30000);
}

describe("message states", () => {
  test("a message from A to B is answered once B writes back to A; what B has not been handed stays as it is", async () => {
    const [a, b] = agentsFleet(["the boss", "the worker"]).ids as [string, string];
    const ask = send(sb, a, b, "which tests fail?").body;
    await delivered(sb, ask.messageId);
    const reply = send(sb, b, a, "none of them");
    expect(reply.code).toBe(0);
    expect(reply.body.answered).toEqual([ask.messageId]);
    expect(status(sb, ask.messageId)).toMatchObject({ state: "answered", answeredBy: reply.body.messageId });
    expect(sb.spex(["session", "message-status", ask.messageId]).stdout).toContain(`answered by ${reply.body.messageId}`);
    // The reply itself is an ordinary message until A writes back.
    await delivered(sb, reply.body.messageId);
    // A message from the user is nobody's question to answer.
    const fromUser = JSON.parse(sb.spex(["session", "send", b, "status?", "--json"]).stdout);
    await delivered(sb, fromUser.messageId);
    send(sb, b, a, "still none");
    expect(status(sb, fromUser.messageId).state).toBe("delivered");
  });

  test("--reply-to answers exactly the message it names; one not sent to the replier by the target is reply_invalid, nothing sent", async () => {
    const [a, b, c] = agentsFleet(["the boss", "the worker", "another worker"]).ids as [string, string, string];
    const first = send(sb, a, b, "first question").body;
    await delivered(sb, first.messageId);
    const second = send(sb, a, b, "second question").body;
    await delivered(sb, second.messageId);
    const toC = send(sb, a, c, "a question for c").body;
    await delivered(sb, toC.messageId);

    for (const [id, to] of [[toC.messageId, a], [first.messageId, c]] as const) {
      const bad = send(sb, b, to, `replying to ${id}`, ["--reply-to", id]);
      expect(bad.code).toBe(1);
      expect(bad.body.error.code).toBe("reply_invalid");
    }
    // Nothing was queued to c by the refusals (its only message is toC)...
    expect(sb.spex(["session", "message-status", `${c.slice(0, 8)}-2`]).stderr).toContain("[message_not_found]");
    const reply = send(sb, b, a, "about the second one", ["--reply-to", second.messageId]);
    // ...nor to a: this reply is its first message.
    expect(reply.body.messageId).toBe(`${a.slice(0, 8)}-1`);
    expect(reply.body.answered).toEqual([second.messageId]);
    expect(status(sb, second.messageId).state).toBe("answered");
    expect(status(sb, first.messageId).state).toBe("delivered");
    expect(status(sb, toC.messageId).state).toBe("delivered");
  });

  test("a message to a stopped recipient stays queued with the reason, and is delivered once it is resumed", async () => {
    const { agents, ids } = agentsFleet(["the boss", "the worker"]);
    const [a, b] = ids as [string, string];
    expect(sb.spex(["session", "stop", b]).code).toBe(0);
    const sent = send(sb, a, b, "are you there?");
    expect(sent.code).toBe(0);
    expect(sent.body).toMatchObject({ state: "queued", reason: "recipient stopped; delivered on resume" });
    expect(status(sb, sent.body.messageId)).toMatchObject({ state: "queued", reason: "recipient stopped; delivered on resume", queuePosition: 1 });
    expect(sb.spex(["session", "resume", b]).code).toBe(0);
    await delivered(sb, sent.body.messageId);
    expect(status(sb, sent.body.messageId).reason).toBe("");
    expect(agents.entries().some((e) => e.kind === "prompt" && String(e.text).includes("are you there?"))).toBe(true);
  });
});
