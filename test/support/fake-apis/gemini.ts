// A stand-in for the Gemini API on loopback, enough for the real Gemini CLI:
// POST /v1beta/models/<model>:streamGenerateContent?alt=sse (and the
// non-streaming generateContent / countTokens it may use), a request log.
import type { ServerResponse } from "node:http";
import { hold, isContextBlock, sendJson, startFakeServer, startSse, type FakeServer, type Hold, type LoggedRequest } from "./common";

export interface GeminiReply extends Hold {
  text?: string;
  functionCall?: { name: string; args: Record<string, unknown> };
}

export interface FakeGeminiOptions {
  replyText?: string;
  hold?: Hold;
  queue?: GeminiReply[];
  /** Function calls to make, in order, each once the request declares that function (an MCP tool is mcp_<server>_<tool>). */
  calls?: { name: string; args: Record<string, unknown> }[];
  respond?: (req: LoggedRequest, fake: FakeGemini) => GeminiReply;
}

export interface FakeGemini extends FakeServer {
  options: FakeGeminiOptions;
  /** streamGenerateContent requests that carry tools (main turns). */
  turns(): LoggedRequest[];
}

type Content = { role?: string; parts?: { text?: string; functionResponse?: unknown }[] };

function contentsOf(req: LoggedRequest): Content[] {
  return (req.body as { contents?: Content[] })?.contents ?? [];
}

const hasTools = (req: LoggedRequest) => Array.isArray((req.body as { tools?: unknown[] })?.tools) && ((req.body as { tools: unknown[] }).tools.length > 0);

/** Texts of the user contents of a request (function responses excluded). */
export function geminiUserPrompts(req: LoggedRequest): string[] {
  return contentsOf(req)
    .filter((c) => c.role === "user")
    .map((c) => (c.parts ?? []).filter((p) => typeof p.text === "string" && !isContextBlock(p.text)).map((p) => p.text!).join("\n"))
    .filter((t) => t.length > 0);
}

function lastIsFunctionResponse(req: LoggedRequest): boolean {
  const cs = contentsOf(req);
  return !!cs[cs.length - 1]?.parts?.some((p) => p.functionResponse);
}

// The CLI asks side questions (routing, next-speaker checks) that expect JSON.
function jsonAnswer(req: LoggedRequest): string | undefined {
  const cfg = (req.body as { generationConfig?: { responseMimeType?: string; responseJsonSchema?: { properties?: Record<string, unknown> }; responseSchema?: { properties?: Record<string, unknown> } } })?.generationConfig;
  if (cfg?.responseMimeType !== "application/json") return undefined;
  const props = cfg.responseJsonSchema?.properties ?? cfg.responseSchema?.properties ?? {};
  const out: Record<string, string> = {};
  for (const k of Object.keys(props)) out[k] = k === "next_speaker" ? "user" : "fake";
  return JSON.stringify(out);
}

/** The function names a request declares. */
export function geminiDeclaredFunctions(req: LoggedRequest): string[] {
  const tools = (req.body as { tools?: { functionDeclarations?: { name?: string }[] }[] })?.tools ?? [];
  return tools.flatMap((t) => (t.functionDeclarations ?? []).map((d) => d.name ?? ""));
}

/** The responses of every function call the request carries back. */
export function geminiFunctionResponses(req: LoggedRequest): { name: string; response: unknown }[] {
  return contentsOf(req).flatMap((c) => (c.parts ?? []).flatMap((p) => (p.functionResponse ? [p.functionResponse as { name: string; response: unknown }] : [])));
}

export function defaultGeminiReply(req: LoggedRequest, fake: FakeGemini): GeminiReply {
  const o = fake.options;
  const json = jsonAnswer(req);
  if (json !== undefined) return { text: json };
  if (!hasTools(req)) return { text: "Fake session title" };
  if (o.queue?.length) return o.queue.shift()!;
  const call = o.calls?.[0];
  if (call && geminiDeclaredFunctions(req).includes(call.name)) {
    o.calls!.shift();
    return { functionCall: call, ...o.hold };
  }
  if (lastIsFunctionResponse(req)) return { text: "The command finished.", ...o.hold };
  return { text: o.replyText ?? "Hello from the fake model.", ...o.hold };
}

function candidate(reply: GeminiReply): unknown {
  const parts: unknown[] = [];
  if (reply.text !== undefined) parts.push({ text: reply.text });
  if (reply.functionCall) parts.push({ functionCall: reply.functionCall });
  return {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: "gemini-fake",
  };
}

async function streamReply(res: ServerResponse, reply: GeminiReply): Promise<void> {
  const send = startSse(res);
  await hold(reply, res);
  send(null, candidate(reply));
  res.end();
}

export async function startFakeGemini(options: FakeGeminiOptions = {}): Promise<FakeGemini> {
  let fake!: FakeGemini;
  const server = await startFakeServer(async (req, res) => {
    const m = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(\w+)$/.exec(req.path);
    if (req.method !== "POST" || !m) return sendJson(res, 404, { error: { code: 404, message: `no route ${req.path}`, status: "NOT_FOUND" } });
    const action = m[2];
    if (action === "countTokens") return sendJson(res, 200, { totalTokens: 10 });
    if (action === "embedContent") return sendJson(res, 200, { embedding: { values: [0, 0, 0] } });
    const reply = (fake.options.respond ?? defaultGeminiReply)(req, fake);
    if (action === "streamGenerateContent") return streamReply(res, reply);
    await hold(reply, res);
    return sendJson(res, 200, candidate(reply));
  });
  fake = {
    ...server,
    options,
    turns: () => server.requests.filter((r) => r.method === "POST" && r.path.endsWith(":streamGenerateContent") && hasTools(r)),
  };
  return fake;
}
