// The real Codex and Gemini CLIs (from npm), launched by `spex session new`,
// call spex's MCP server as their stand-in models tell them to: task_claim,
// then session_send. Codex reads the server from the worktree's
// .codex/config.toml (names a server's tools mcp__spex/<tool>), Gemini from
// .gemini/settings.json (mcp_spex_<tool>); neither asks before calling it.
import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type AgentSandbox, CODEX_BIN, GEMINI_BIN, agentSandbox, spexAsync } from "../support/agent-sandbox";
import { openaiToolOutputs } from "../support/fake-apis/openai";
import { geminiFunctionResponses } from "../support/fake-apis/gemini";
import { type Sandbox, waitFor } from "../support/sandbox";

let as: AgentSandbox<"codex"> | AgentSandbox<"gemini"> | undefined;
afterEach(async () => {
  await as?.close();
  as = undefined;
});

async function spexJson(sb: Sandbox, args: string[]): Promise<any> {
  const r = await spexAsync(sb, [...args, "--json"]);
  if (r.code !== 0) throw new Error(`spex ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

function timelineOf(sb: Sandbox, id: string): any[] {
  const [key] = readdirSync(join(sb.home, "projects"));
  return readFileSync(join(sb.home, "projects", key!, "sessions", id, "timeline.ndjson"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

/** The JSON object inside a tool's answer as the CLI hands it back (Codex prefixes the wall time, Gemini wraps it). */
function jsonIn(text: string): any {
  return JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1));
}

interface Drive {
  /** Queue the next MCP call of the stand-in model. */
  call(tool: string, args: Record<string, unknown>): void;
  /** Every tool answer the CLI sent back so far, as text. */
  answers(): string[];
}

/**
 * One turn: claim a task over MCP, then message another session; check both
 * landed as this session's. (One turn, so the test does not lean on typing a
 * second prompt into the CLI: that is comms' business, tested elsewhere.)
 */
async function claimThenSend(sb: Sandbox, launcher: string, drive: Drive): Promise<void> {
  const task = await spexJson(sb, ["task", "new", "port the parser"]);
  const beta = (await spexJson(sb, ["session", "new", "--launcher", "shell", "--no-launch", "--name", "beta", "the recipient"])).session_id as string;
  drive.call("task_claim", {});
  drive.call("session_send", { session: "beta", text: `hello from ${launcher}` });
  const id = (await spexJson(sb, ["session", "new", "--launcher", launcher, "take the next task from the list and tell beta"])).session_id as string;

  const claim = await waitFor(() => drive.answers().find((t) => t.includes('"owner"')), `the task_claim answer from ${launcher}`, 120000);
  expect(jsonIn(claim)).toMatchObject({ id: task.id, state: "in_progress", owner: id, changed: true });
  expect((await spexJson(sb, ["task", "ls"]))[0]).toMatchObject({ state: "in_progress", owner: id });

  const send = await waitFor(() => drive.answers().find((t) => t.includes('"messageId"')), `the session_send answer from ${launcher}`, 120000);
  const status = await spexJson(sb, ["session", "message-status", jsonIn(send).messageId]);
  expect(status).toMatchObject({ target: beta, from: { kind: "session", id }, text: `hello from ${launcher}` });
  await waitFor(async () => (await spexJson(sb, ["session", "ls", id]))[0].display === "idle", "idle after the turn", 60000);
  expect(timelineOf(sb, id).filter((e) => e.kind === "state").map((e) => e.status)).not.toContain("asking");
}

describe.skipIf(!CODEX_BIN)("real Codex over spex mcp", () => {
  test("a namespaced call of mcp__spex task_claim claims for that session; session_send queues from it", async () => {
    const codex = await agentSandbox("codex", { replyText: "done" });
    as = codex;
    await claimThenSend(codex.sb, "codex", {
      call: (tool, args) => (codex.api.options.mcpCalls ??= []).push({ server: "spex", tool, arguments: args }),
      answers: () => codex.api.turns().flatMap(openaiToolOutputs),
    });
  }, 300000);
});

describe.skipIf(!GEMINI_BIN)("real Gemini CLI over spex mcp", () => {
  test("a functionCall of mcp_spex_task_claim claims for that session; mcp_spex_session_send queues from it", async () => {
    const gemini = await agentSandbox("gemini", { replyText: "done" });
    as = gemini;
    await claimThenSend(gemini.sb, "gemini", {
      call: (tool, args) => (gemini.api.options.calls ??= []).push({ name: `mcp_spex_${tool}`, args }),
      answers: () => gemini.api.turns().flatMap(geminiFunctionResponses).map((r) => {
        const output = (r.response as { output?: unknown })?.output;
        return typeof output === "string" ? output : JSON.stringify(r.response);
      }),
    });
  }, 300000);
});
