// The real Claude Code CLI (from npm), launched by `spex session new`, calls
// spex's MCP server the way a model would: the stand-in Messages API answers
// with a tool_use of mcp__spex__task_claim, then of mcp__spex__session_send.
// Claude Code starts `spex mcp` from the worktree's .mcp.json without asking
// (spex enabled it and allowed its tools), and the server acts as the session.
import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CLAUDE_BIN, type ClaudeSandbox, claudeSandbox, spexAsync } from "../support/agent-sandbox";
import { toolResults } from "../support/fake-apis/anthropic";
import { waitFor } from "../support/sandbox";

let cs: ClaudeSandbox | undefined;
afterEach(async () => {
  await cs?.close();
  cs = undefined;
});

async function spexJson(args: string[]): Promise<any> {
  const r = await spexAsync(cs!.sb, [...args, "--json"]);
  if (r.code !== 0) throw new Error(`spex ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** A session's timeline events, read from its store file. */
function timelineOf(id: string): any[] {
  const [key] = readdirSync(join(cs!.sb.home, "projects"));
  const text = readFileSync(join(cs!.sb.home, "projects", key!, "sessions", id, "timeline.ndjson"), "utf8");
  return text.split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

/** The tool results Claude Code sent back to the stand-in, over every turn so far. */
const results = () => cs!.api.turns().flatMap(toolResults);

describe.skipIf(!CLAUDE_BIN)("real Claude Code over spex mcp", () => {
  test("a tool_use of mcp__spex__task_claim claims the task for that session; one of mcp__spex__session_send queues a message from it", async () => {
    cs = await claudeSandbox({ replyText: "done", mcpToolUses: [{ name: "mcp__spex__task_claim", input: {} }] });
    const task = await spexJson(["task", "new", "port the parser", "--body", "move lib/parse to the new tokenizer"]);
    const beta = (await spexJson(["session", "new", "--launcher", "shell", "--no-launch", "--name", "beta", "the recipient"])).session_id as string;

    const created = await spexJson(["session", "new", "--launcher", "claude", "take the next task from the list"]);
    const id = created.session_id as string;

    // Claude Code called the tool and got spex's answer back: the task, now this session's.
    const claim = await waitFor(() => results().find((r) => r.text.includes('"owner"')), "the task_claim result at the stand-in API", 90000);
    expect(claim.isError).toBe(false);
    expect(JSON.parse(claim.text)).toMatchObject({ id: task.id, state: "in_progress", owner: id, mine: true, changed: true });
    const listed = (await spexJson(["task", "ls"])).find((t: any) => t.id === task.id);
    expect(listed).toMatchObject({ state: "in_progress", owner: id });
    await waitFor(async () => (await spexJson(["session", "ls", id]))[0].display === "idle", "idle after the turn", 60000);

    // The next turn sends a message through the server: queued on beta, from this session.
    cs.api.options.mcpToolUses = [{ name: "mcp__spex__session_send", input: { session: "beta", text: "t1 is mine; the tokenizer lands first" } }];
    const sent = await spexJson(["session", "send", id, "tell beta you took it"]);
    expect(sent.state).toBe("delivered");
    const send = await waitFor(() => results().find((r) => r.text.includes('"messageId"')), "the session_send result at the stand-in API", 90000);
    const message = JSON.parse(send.text);
    expect(message.target).toBe(beta);
    const status = await spexJson(["session", "message-status", message.messageId]);
    expect(status).toMatchObject({ target: beta, from: { kind: "session", id }, text: "t1 is mine; the tokenizer lands first" });
    expect(timelineOf(beta).some((e) => e.kind === "message_in" && e.from.kind === "session" && e.from.id === id)).toBe(true);
    expect(timelineOf(id).some((e) => e.kind === "message_out" && e.to === beta)).toBe(true);

    // No approval dialog held the session at any point: it was never asking.
    expect(timelineOf(id).filter((e) => e.kind === "state").map((e) => e.status)).not.toContain("asking");
  }, 240000);
});
