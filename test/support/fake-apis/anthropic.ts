// A stand-in for the Anthropic Messages API on loopback, enough for the real
// Claude Code CLI: streaming POST /v1/messages (SSE), side questions (requests
// without tools, e.g. titles) answered briefly, scripted replies, optional
// tool_use, held replies to keep a turn in progress, and a request log.
import type { ServerResponse } from "node:http";
import { type FakeFailure, hold, sendFailure, sendJson, startFakeServer, startSse, takeFailure, type FakeServer, type Hold, type LoggedRequest } from "./common";

/** The usage a reply reports (the Messages API's own field names). */
export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

export const DEFAULT_ANTHROPIC_USAGE: AnthropicUsage = { input_tokens: 10, output_tokens: 5 };

export interface AnthropicReply extends Hold {
  /** Text the assistant answers with. */
  text?: string;
  /** A tool call instead of (after) the text, e.g. Bash to provoke a permission dialog. */
  toolUse?: { name: string; input: Record<string, unknown>; id?: string };
}

export type AnthropicResponder = (req: LoggedRequest, fake: FakeAnthropic) => AnthropicReply;

export interface FakeAnthropicOptions {
  /** Answer of a main turn (default "Hello from the fake model."). */
  replyText?: string;
  /** Answer of a side question such as a title request. */
  sideText?: string;
  /** Hold applied to main turns. */
  hold?: Hold;
  /** Answer the next main turn with this tool call; its tool_result is then answered with text. */
  toolUse?: AnthropicReply["toolUse"];
  /** Replies for the next main-turn requests, in order, before the rules above apply. */
  queue?: AnthropicReply[];
  /**
   * MCP tool calls to make, in order, each once the CLI offers that tool: an
   * MCP server's tools join the request only after it connects, so until then
   * the stand-in calls Claude Code's own WaitForMcpServers tool.
   */
  mcpToolUses?: { name: string; input: Record<string, unknown> }[];
  /** Full control: decides every reply. */
  respond?: AnthropicResponder;
  /** The usage every reply reports (default 10 in, 5 out). */
  usage?: AnthropicUsage;
  /** Answer main turns with an API error (429 rate_limit_error, 401 authentication_error, …). */
  fail?: FakeFailure;
}

/** The Messages API's error body for a status. */
export function anthropicError(status: number): unknown {
  const type = status === 429 ? "rate_limit_error" : status === 401 ? "authentication_error" : status === 529 ? "overloaded_error" : "api_error";
  const message = status === 429 ? "Number of request tokens has exceeded your per-minute rate limit" : status === 401 ? "invalid x-api-key" : "fake failure";
  return { type: "error", error: { type, message } };
}

export interface FakeAnthropic extends FakeServer {
  options: FakeAnthropicOptions;
  /** The /v1/messages requests that belong to a main turn (they carry tools). */
  turns(): LoggedRequest[];
  /** The /v1/messages requests without tools (titles and other side questions). */
  sideQuestions(): LoggedRequest[];
}

type Block = { type: string; text?: string; [k: string]: unknown };
type Message = { role: string; content: string | Block[] };

export function messagesOf(req: LoggedRequest): Message[] {
  const body = req.body as { messages?: Message[] } | undefined;
  return Array.isArray(body?.messages) ? body!.messages : [];
}

export function isSideQuestion(req: LoggedRequest): boolean {
  const tools = (req.body as { tools?: unknown[] } | undefined)?.tools;
  return !Array.isArray(tools) || tools.length === 0;
}

function blocks(m: Message): Block[] {
  return typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
}

const isTypedText = (b: Block) => b.type === "text" && typeof b.text === "string" && !b.text.trimStart().startsWith("<system-reminder>");

/**
 * What the user typed in each user message: its text blocks, without the
 * <system-reminder> blocks Claude Code adds and without tool results.
 */
export function userPrompts(req: LoggedRequest): string[] {
  return messagesOf(req)
    .filter((m) => m.role === "user")
    .map((m) =>
      blocks(m)
        .filter(isTypedText)
        .map((b) => b.text!)
        .join("\n"),
    )
    .filter((t) => t.length > 0);
}

// A tool result with nothing typed beside it (after an interrupted tool call
// Claude Code sends the result and the next prompt in one user message).
function lastIsToolResult(req: LoggedRequest): boolean {
  const msgs = messagesOf(req).filter((m) => m.role !== "system");
  const last = msgs[msgs.length - 1];
  if (!last || last.role !== "user") return false;
  const bs = blocks(last);
  return bs.some((b) => b.type === "tool_result") && !bs.some(isTypedText);
}

// Side questions may ask for JSON through output_config (titles want {"title": …}).
function sideAnswer(req: LoggedRequest, text: string): string {
  const format = (req.body as { output_config?: { format?: { type?: string; schema?: { properties?: Record<string, unknown> } } } })?.output_config?.format;
  if (format?.type !== "json_schema") return text;
  const keys = Object.keys(format.schema?.properties ?? { title: 1 });
  return JSON.stringify(Object.fromEntries(keys.map((k) => [k, text])));
}

/** The tool names a main-turn request offers the model. */
export function offeredTools(req: LoggedRequest): string[] {
  const tools = (req.body as { tools?: { name?: string }[] } | undefined)?.tools;
  return Array.isArray(tools) ? tools.map((t) => t.name ?? "") : [];
}

/** The text of every tool_result block the request carries back (what the tools answered). */
export function toolResults(req: LoggedRequest): { toolUseId: string; text: string; isError: boolean }[] {
  const out: { toolUseId: string; text: string; isError: boolean }[] = [];
  for (const m of messagesOf(req)) {
    if (m.role !== "user") continue;
    for (const b of blocks(m)) {
      if (b.type !== "tool_result") continue;
      const content = b.content as string | Block[] | undefined;
      const text = typeof content === "string" ? content : (content ?? []).map((c) => c.text ?? "").join("\n");
      out.push({ toolUseId: String(b.tool_use_id ?? ""), text, isError: b.is_error === true });
    }
  }
  return out;
}

const WAIT_FOR_MCP = "WaitForMcpServers";

/** The next MCP tool call once it is offered; a wait for the servers before that (at most three in a row). */
function mcpReply(req: LoggedRequest, o: FakeAnthropicOptions): AnthropicReply | undefined {
  const next = o.mcpToolUses?.[0];
  if (!next) return undefined;
  const offered = offeredTools(req);
  if (offered.includes(next.name)) {
    o.mcpToolUses!.shift();
    return { toolUse: { name: next.name, input: next.input }, ...o.hold };
  }
  const waits = messagesOf(req).flatMap((m) => (m.role === "assistant" ? blocks(m) : [])).filter((b) => b.type === "tool_use" && b.name === WAIT_FOR_MCP).length;
  if (offered.includes(WAIT_FOR_MCP) && waits < 3) return { toolUse: { name: WAIT_FOR_MCP, input: {} } };
  return { text: `the tool ${next.name} was never offered` };
}

export const defaultResponder: AnthropicResponder = (req, fake) => {
  const o = fake.options;
  if (isSideQuestion(req)) return { text: sideAnswer(req, o.sideText ?? "Fake session title") };
  if (o.queue?.length) return o.queue.shift()!;
  const mcp = mcpReply(req, o);
  if (mcp) return mcp;
  if (lastIsToolResult(req)) return { text: "The command finished.", ...o.hold };
  if (o.toolUse) {
    const toolUse = o.toolUse;
    o.toolUse = undefined;
    return { toolUse, ...o.hold };
  }
  return { text: o.replyText ?? "Hello from the fake model.", ...o.hold };
};

let toolCounter = 0;

let messageCounter = 0;

async function streamReply(res: ServerResponse, model: string, reply: AnthropicReply, usage: AnthropicUsage): Promise<void> {
  const send = startSse(res);
  const id = `msg_fake_${Date.now().toString(36)}_${++messageCounter}`;
  // As the real API does: the input side in message_start (output 1 so far), the final output count in message_delta.
  send("message_start", {
    type: "message_start",
    message: { id, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
  });
  send("ping", { type: "ping" });
  // Held after message_start so the CLI shows its working indicator meanwhile.
  await hold(reply, res);
  let index = 0;
  if (reply.text !== undefined) {
    send("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
    send("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: reply.text } });
    send("content_block_stop", { type: "content_block_stop", index });
    index++;
  }
  if (reply.toolUse) {
    const toolId = reply.toolUse.id ?? `toolu_fake_${++toolCounter}`;
    send("content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id: toolId, name: reply.toolUse.name, input: {} } });
    send("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(reply.toolUse.input) } });
    send("content_block_stop", { type: "content_block_stop", index });
  }
  send("message_delta", { type: "message_delta", delta: { stop_reason: reply.toolUse ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  send("message_stop", { type: "message_stop" });
  res.end();
}

export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  let fake!: FakeAnthropic;
  const server = await startFakeServer(async (req, res) => {
    if (req.method === "POST" && req.path === "/v1/messages/count_tokens") return sendJson(res, 200, { input_tokens: 10 });
    if (req.method !== "POST" || req.path !== "/v1/messages") return sendJson(res, 404, { type: "error", error: { type: "not_found_error", message: `no route ${req.path}` } });
    const body = req.body as { model?: string; stream?: boolean };
    const failure = isSideQuestion(req) ? undefined : takeFailure(fake.options);
    if (failure) return sendFailure(res, failure, anthropicError(failure.status));
    const reply = (fake.options.respond ?? defaultResponder)(req, fake);
    const model = body?.model ?? "claude-fake";
    const usage = fake.options.usage ?? DEFAULT_ANTHROPIC_USAGE;
    if (body?.stream) return streamReply(res, model, reply, usage);
    await hold(reply, res);
    const content: Block[] = [];
    if (reply.text !== undefined) content.push({ type: "text", text: reply.text });
    if (reply.toolUse) content.push({ type: "tool_use", id: reply.toolUse.id ?? `toolu_fake_${++toolCounter}`, name: reply.toolUse.name, input: reply.toolUse.input });
    sendJson(res, 200, {
      id: `msg_fake_${Date.now().toString(36)}`, type: "message", role: "assistant", model, content,
      stop_reason: reply.toolUse ? "tool_use" : "end_turn", stop_sequence: null, usage,
    });
  });
  const isMessages = (r: LoggedRequest) => r.method === "POST" && r.path === "/v1/messages";
  fake = {
    ...server,
    options,
    turns: () => server.requests.filter((r) => isMessages(r) && !isSideQuestion(r)),
    sideQuestions: () => server.requests.filter((r) => isMessages(r) && isSideQuestion(r)),
  };
  return fake;
}
