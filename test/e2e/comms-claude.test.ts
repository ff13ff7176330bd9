// The real Claude Code CLI (from npm) in tmux against the fake Messages API:
// `send` types a two-line prompt into its composer once it is at rest.
import { afterEach, describe, expect, test } from "bun:test";
import { SPEX_BIN, waitFor } from "../support/sandbox";
import { countingBin } from "../support/agents";
import { CLAUDE_BIN, type ClaudeSandbox, claudeSandbox, spexAsync } from "../support/agent-sandbox";
import { messagesOf, userPrompts } from "../support/fake-apis/anthropic";
import { gate } from "../support/fake-apis/common";

let cs: ClaudeSandbox | undefined;
afterEach(async () => {
  await cs?.close();
  cs = undefined;
});

const spex = (args: string[]) => spexAsync(cs!.sb, args);

describe.skipIf(!CLAUDE_BIN)("send to real Claude Code", () => {
  test("a two-line send reaches the model as one user message; UserPromptSubmit fires once; idle again; delivered", async () => {
    cs = await claudeSandbox({ replyText: "noted" });
    const { sb, api } = cs;
    const counter = countingBin(sb, SPEX_BIN);

    const created = await spex(["session", "new", "first", "--launcher", "claude", "--json"]);
    expect(created.stderr).toBe("");
    const id = JSON.parse(created.stdout).session_id as string;
    const first = await spex(["session", "wait", id, "--idle", "--timeout", "90", "--json"]);
    expect(first.code).toBe(0);
    const turnsBefore = api.turns().length;

    const sent = await spex(["session", "send", id, "second prompt, line one\nand line two", "--json"]);
    expect(sent.code).toBe(0);
    const messageId = JSON.parse(sent.stdout).messageId as string;

    await waitFor(() => api.turns().slice(turnsBefore).some((t) => userPrompts(t).some((p) => p.includes("and line two"))), "the second prompt at the fake API", 60000);
    const turn = api.turns().slice(turnsBefore).find((t) => userPrompts(t).some((p) => p.includes("and line two")))!;
    const prompts = userPrompts(turn);
    // One user message holds both lines; neither line arrived on its own.
    expect(prompts.filter((p) => p.includes("line one") || p.includes("line two"))).toEqual([expect.stringContaining("second prompt, line one\nand line two")]);
    expect(messagesOf(turn).filter((m) => m.role === "user").length).toBe(2);

    const again = await spex(["session", "wait", id, "--idle", "--timeout", "90", "--json"]);
    expect(again.code).toBe(0);
    expect(JSON.parse((await spex(["session", "ls", id, "--json"])).stdout)[0].display).toBe("idle");
    expect(counter.calls().filter((c) => c === "internal hook claude turn UserPromptSubmit")).toHaveLength(1);
    expect(JSON.parse((await spex(["session", "message-status", messageId, "--json"])).stdout).state).toBe("delivered");
  }, 180000);

  test("a message sent while Claude works is typed only after its Stop, as the next turn", async () => {
    const g = gate();
    cs = await claudeSandbox({ queue: [{ text: "done with the first", until: g.promise }], replyText: "noted" });
    const { api } = cs;

    const id = JSON.parse((await spex(["session", "new", "long first task", "--launcher", "claude", "--json"])).stdout).session_id as string;
    await waitFor(() => api.turns().length >= 1, "the first turn in flight", 60000);
    const sent = JSON.parse((await spex(["session", "send", id, "a follow-up", "--json"])).stdout);
    expect(sent.state).toBe("queued");
    expect(api.turns().some((t) => userPrompts(t).some((p) => p.includes("a follow-up")))).toBe(false);

    g.open();
    await waitFor(() => api.turns().some((t) => userPrompts(t).some((p) => p.includes("a follow-up"))), "the follow-up as its own turn", 60000);
    const turn = api.turns().find((t) => userPrompts(t).some((p) => p.includes("a follow-up")))!;
    // The first answer sits between the two prompts: the follow-up started a new turn.
    expect(messagesOf(turn).map((m) => m.role).filter((r) => r !== "system")).toEqual(["user", "assistant", "user"]);
    const settled = await spex(["session", "wait", id, "--idle", "--timeout", "90"]);
    expect(settled.code).toBe(0);
    expect(JSON.parse((await spex(["session", "message-status", sent.messageId, "--json"])).stdout).state).toBe("delivered");
  }, 180000);
});
