// A stand-in for the Gemini API on loopback, enough for the real Gemini CLI:
// POST /v1beta/models/<model>:streamGenerateContent?alt=sse (and the
// non-streaming generateContent / countTokens it may use), a request log.
import type { ServerResponse } from "node:http";
import { type FakeFailure, hold, isContextBlock, sendFailure, sendJson, startFakeServer, startSse, takeFailure, type FakeServer, type Hold, type LoggedRequest } from "./common";

/** The usage a reply reports (usageMetadata's names: cached tokens are part of the prompt count). */
export interface GeminiUsage {
  promptTokenCount: number;
  candidatesTokenCount: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
}

export const DEFAULT_GEMINI_USAGE: GeminiUsage = { promptTokenCount: 10, candidatesTokenCount: 5 };

/** The Gemini API's error body for a status. */
export function geminiError(status: number): unknown {
  // A daily quota, as the free tier answers: the CLI treats it as final rather than retrying for minutes.
  if (status === 429) {
    return {
      error: {
        code: 429,
        message: "You exceeded your current quota, please check your plan and billing details.",
        status: "RESOURCE_EXHAUSTED",
        details: [
          { "@type": "type.googleapis.com/google.rpc.QuotaFailure", violations: [{ quotaMetric: "generativelanguage.googleapis.com/generate_content_free_tier_requests", quotaId: "GenerateRequestsPerDayPerProjectPerModel-FreeTier" }] },
          { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "30s" },
        ],
      },
    };
  }
  if (status === 400 || status === 401) {
    return { error: { code: status, message: "API key not valid. Please pass a valid API key.", status: "INVALID_ARGUMENT", details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID", domain: "googleapis.com" }] } };
  }
  return { error: { code: status, message: "fake failure", status: "INTERNAL" } };
}

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
  /** The usage every reply reports (default 10 in, 5 out). */
  usage?: GeminiUsage;
  /** Answer main turns with an API error (429, 400 with API_KEY_INVALID, …). */
  fail?: FakeFailure;
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

function candidate(reply: GeminiReply, u: GeminiUsage): unknown {
  const parts: unknown[] = [];
  if (reply.text !== undefined) parts.push({ text: reply.text });
  if (reply.functionCall) parts.push({ functionCall: reply.functionCall });
  return {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: {
      promptTokenCount: u.promptTokenCount,
      candidatesTokenCount: u.candidatesTokenCount,
      ...(u.cachedContentTokenCount ? { cachedContentTokenCount: u.cachedContentTokenCount } : {}),
      ...(u.thoughtsTokenCount ? { thoughtsTokenCount: u.thoughtsTokenCount } : {}),
      totalTokenCount: u.promptTokenCount + u.candidatesTokenCount + (u.thoughtsTokenCount ?? 0),
    },
    modelVersion: "gemini-fake",
  };
}

async function streamReply(res: ServerResponse, reply: GeminiReply, u: GeminiUsage): Promise<void> {
  const send = startSse(res);
  await hold(reply, res);
  send(null, candidate(reply, u));
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
    const failure = hasTools(req) ? takeFailure(fake.options) : undefined;
    if (failure) return sendFailure(res, failure, geminiError(failure.status));
    const reply = (fake.options.respond ?? defaultGeminiReply)(req, fake);
    const usage = fake.options.usage ?? DEFAULT_GEMINI_USAGE;
    if (action === "streamGenerateContent") return streamReply(res, reply, usage);
    await hold(reply, res);
    return sendJson(res, 200, candidate(reply, usage));
  });
  fake = {
    ...server,
    options,
    turns: () => server.requests.filter((r) => r.method === "POST" && r.path.endsWith(":streamGenerateContent") && hasTools(r)),
  };
  return fake;
}
