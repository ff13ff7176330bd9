// A stand-in for the OpenAI Responses API on loopback, enough for the real
// Codex CLI: streaming POST /v1/responses with text or a function call,
// held replies and a request log.
import type { ServerResponse } from "node:http";
import { type FakeFailure, hold, isContextBlock, sendFailure, sendJson, startFakeServer, startSse, takeFailure, type FakeServer, type Hold, type LoggedRequest } from "./common";

/** The usage a response reports (the Responses API's names: cached and reasoning tokens are parts of input and output). */
export interface OpenAIUsage {
  input_tokens: number;
  output_tokens: number;
  cached_tokens?: number;
  reasoning_tokens?: number;
}

export const DEFAULT_OPENAI_USAGE: OpenAIUsage = { input_tokens: 10, output_tokens: 5 };

/** The Responses API's error body for a status. */
export function openaiError(status: number): unknown {
  if (status === 429) return { error: { type: "requests", code: "rate_limit_exceeded", message: "Rate limit reached for requests. Please try again later.", param: null } };
  if (status === 401) return { error: { type: "invalid_request_error", code: "invalid_api_key", message: "Incorrect API key provided.", param: null } };
  return { error: { type: "server_error", code: null, message: "fake failure", param: null } };
}

export interface OpenAIReply extends Hold {
  text?: string;
  /** A function call (Codex's shell tool is named in the request's `tools`). */
  functionCall?: { name: string; arguments: Record<string, unknown>; callId?: string; namespace?: string };
}

export interface FakeOpenAIOptions {
  replyText?: string;
  hold?: Hold;
  /** Replies for the next turns, in order, before the default applies. */
  queue?: OpenAIReply[];
  /** MCP tool calls to make, in order, each once the request offers it (Codex lists a server's tools under the namespace mcp__<server>). */
  mcpCalls?: { server: string; tool: string; arguments: Record<string, unknown> }[];
  respond?: (req: LoggedRequest, fake: FakeOpenAI) => OpenAIReply;
  /** The usage every response reports (default 10 in, 5 out). */
  usage?: OpenAIUsage;
  /** Answer main turns with an API error (429, 401, …). */
  fail?: FakeFailure;
}

export interface FakeOpenAI extends FakeServer {
  options: FakeOpenAIOptions;
  /** POST /v1/responses requests of main turns (side questions such as titles excluded). */
  turns(): LoggedRequest[];
}

type InputItem = { type?: string; role?: string; content?: string | { type: string; text?: string }[] };

/** What the user typed in each user message of a Responses request. */
export function openaiUserPrompts(req: LoggedRequest): string[] {
  const input = (req.body as { input?: InputItem[] | string })?.input;
  if (typeof input === "string") return [input];
  return (input ?? [])
    .filter((i) => i.role === "user")
    .map((i) => (typeof i.content === "string" ? [i.content] : (i.content ?? []).map((c) => c.text ?? "")).filter((t) => !isContextBlock(t)).join("\n"))
    .filter((t) => t.length > 0);
}

/** A side question (e.g. a title) asks for JSON through text.format. */
function jsonFormatKeys(req: LoggedRequest): string[] | undefined {
  const format = (req.body as { text?: { format?: { type?: string; schema?: { properties?: Record<string, unknown> } } } })?.text?.format;
  return format?.type === "json_schema" ? Object.keys(format.schema?.properties ?? {}) : undefined;
}

function lastIsToolOutput(req: LoggedRequest): boolean {
  const input = (req.body as { input?: InputItem[] })?.input;
  const last = Array.isArray(input) ? input[input.length - 1] : undefined;
  return last?.type === "function_call_output" || last?.type === "custom_tool_call_output";
}

type ToolSpec = { type?: string; name?: string; tools?: ToolSpec[] };

/** Tool names a request offers, a namespace's as `<namespace>/<tool>`. */
export function openaiOfferedTools(req: LoggedRequest): string[] {
  const tools = (req.body as { tools?: ToolSpec[] })?.tools ?? [];
  return tools.flatMap((t) => (t.type === "namespace" ? (t.tools ?? []).map((x) => `${t.name}/${x.name}`) : [t.name ?? t.type ?? ""]));
}

/** The texts of every function_call_output the request carries back. */
export function openaiToolOutputs(req: LoggedRequest): string[] {
  const input = (req.body as { input?: { type?: string; output?: string | { text?: string }[] }[] })?.input;
  return (Array.isArray(input) ? input : [])
    .filter((i) => i.type === "function_call_output")
    .map((i) => (typeof i.output === "string" ? i.output : (i.output ?? []).map((p) => p.text ?? "").join("\n")));
}

export function defaultOpenAIReply(req: LoggedRequest, fake: FakeOpenAI): OpenAIReply {
  const o = fake.options;
  const keys = jsonFormatKeys(req);
  if (keys) return { text: JSON.stringify(Object.fromEntries(keys.map((k) => [k, "Fake session title"]))) };
  if (o.queue?.length) return o.queue.shift()!;
  const mcp = o.mcpCalls?.[0];
  if (mcp && openaiOfferedTools(req).includes(`mcp__${mcp.server}/${mcp.tool}`)) {
    o.mcpCalls!.shift();
    return { functionCall: { name: mcp.tool, namespace: `mcp__${mcp.server}`, arguments: mcp.arguments }, ...o.hold };
  }
  if (lastIsToolOutput(req)) return { text: "The command finished.", ...o.hold };
  return { text: o.replyText ?? "Hello from the fake model.", ...o.hold };
}

let counter = 0;

async function stream(res: ServerResponse, model: string, reply: OpenAIReply, u: OpenAIUsage): Promise<void> {
  const send = startSse(res);
  const id = `resp_fake_${++counter}`;
  const base = { id, object: "response", created_at: Math.floor(Date.now() / 1000), model, status: "in_progress", output: [] as unknown[] };
  let seq = 0;
  const ev = (type: string, data: Record<string, unknown>) => send(type, { type, sequence_number: seq++, ...data });
  ev("response.created", { response: base });
  ev("response.in_progress", { response: base });
  await hold(reply, res);
  const output: unknown[] = [];
  if (reply.text !== undefined) {
    const item = { id: `msg_fake_${counter}`, type: "message", role: "assistant", status: "in_progress", content: [] as unknown[] };
    const index = output.length;
    ev("response.output_item.added", { output_index: index, item });
    ev("response.content_part.added", { item_id: item.id, output_index: index, content_index: 0, part: { type: "output_text", text: "", annotations: [] } });
    ev("response.output_text.delta", { item_id: item.id, output_index: index, content_index: 0, delta: reply.text });
    ev("response.output_text.done", { item_id: item.id, output_index: index, content_index: 0, text: reply.text });
    const part = { type: "output_text", text: reply.text, annotations: [] };
    ev("response.content_part.done", { item_id: item.id, output_index: index, content_index: 0, part });
    const done = { ...item, status: "completed", content: [part] };
    ev("response.output_item.done", { output_index: index, item: done });
    output.push(done);
  }
  if (reply.functionCall) {
    const fc = reply.functionCall;
    const args = JSON.stringify(fc.arguments);
    const item = { id: `fc_fake_${counter}`, type: "function_call", status: "completed", name: fc.name, ...(fc.namespace ? { namespace: fc.namespace } : {}), arguments: args, call_id: fc.callId ?? `call_fake_${counter}` };
    const index = output.length;
    ev("response.output_item.added", { output_index: index, item: { ...item, arguments: "", status: "in_progress" } });
    ev("response.function_call_arguments.delta", { item_id: item.id, output_index: index, delta: args });
    ev("response.function_call_arguments.done", { item_id: item.id, output_index: index, arguments: args });
    ev("response.output_item.done", { output_index: index, item });
    output.push(item);
  }
  ev("response.completed", {
    response: { ...base, status: "completed", output, usage: {
        input_tokens: u.input_tokens,
        input_tokens_details: { cached_tokens: u.cached_tokens ?? 0 },
        output_tokens: u.output_tokens,
        output_tokens_details: { reasoning_tokens: u.reasoning_tokens ?? 0 },
        total_tokens: u.input_tokens + u.output_tokens,
      },
    },
  });
  res.end();
}

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  let fake!: FakeOpenAI;
  const server = await startFakeServer(async (req, res) => {
    if (req.method === "GET" && req.path === "/v1/models") return sendJson(res, 200, { object: "list", data: [{ id: "gpt-fake", object: "model" }], models: [] });
    if (req.method !== "POST" || req.path !== "/v1/responses") return sendJson(res, 404, { error: { message: `no route ${req.path}` } });
    const failure = jsonFormatKeys(req) ? undefined : takeFailure(fake.options);
    if (failure) return sendFailure(res, failure, openaiError(failure.status));
    const reply = (fake.options.respond ?? defaultOpenAIReply)(req, fake);
    const model = (req.body as { model?: string })?.model ?? "gpt-fake";
    return stream(res, model, reply, fake.options.usage ?? DEFAULT_OPENAI_USAGE);
  });
  fake = { ...server, options, turns: () => server.requests.filter((r) => r.method === "POST" && r.path === "/v1/responses" && !jsonFormatKeys(r)) };
  return fake;
}
