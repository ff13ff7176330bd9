// Shared plumbing of the fake model APIs: a loopback HTTP server that logs
// every request it receives and answers through a per-API route function.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface LoggedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** Parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
  at: number;
}

export interface FakeServer {
  url: string;
  port: number;
  requests: LoggedRequest[];
  close(): Promise<void>;
}

export type Route = (req: LoggedRequest, res: ServerResponse) => Promise<void> | void;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startFakeServer(route: Route): Promise<FakeServer> {
  const requests: LoggedRequest[] = [];
  const open = new Set<ServerResponse>();
  const server = createServer(async (req, res) => {
    open.add(res);
    res.on("close", () => open.delete(res));
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const text = await readBody(req);
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* keep the raw text */
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(", ") : String(v ?? "");
    const logged: LoggedRequest = {
      method: req.method ?? "GET",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      body,
      at: Date.now(),
    };
    requests.push(logged);
    try {
      await route(logged, res);
    } catch (e) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: String(e) }));
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((r) => {
        for (const res of open) res.destroy();
        server.close(() => r());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

export function startSse(res: ServerResponse): (event: string | null, data: unknown) => void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  return (event, data) => {
    if (res.destroyed) return;
    res.write((event ? `event: ${event}\n` : "") + `data: ${JSON.stringify(data)}\n\n`);
  };
}

/** How long a reply is held before it streams: a fixed delay, a gate the test opens, or both. */
export interface Hold {
  delayMs?: number;
  until?: Promise<unknown>;
}

export async function hold(h: Hold, res: ServerResponse): Promise<void> {
  if (h.delayMs) await new Promise((r) => setTimeout(r, h.delayMs));
  if (h.until) await Promise.race([h.until, new Promise((r) => res.on("close", r))]);
}

/**
 * An API error in place of a reply (a rate limit, a bad key): the status, the
 * provider's error body and headers. `times` answers that many requests so
 * (then the normal replies resume); absent, every request until cleared.
 */
export interface FakeFailure {
  status: number;
  times?: number;
  /** Seconds, sent as retry-after (a CLI's retry loop honours it). */
  retryAfter?: number;
  /** Sent as x-should-retry (the Anthropic API's own header; Claude Code gives up at once on false). */
  shouldRetry?: boolean;
}

/** The failure to answer this request with, counting it down; undefined to answer normally. */
export function takeFailure(holder: { fail?: FakeFailure }): FakeFailure | undefined {
  const f = holder.fail;
  if (!f) return undefined;
  if (f.times !== undefined) {
    if (f.times <= 0) return undefined;
    f.times--;
  }
  return f;
}

export function sendFailure(res: ServerResponse, f: FakeFailure, body: unknown): void {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (f.retryAfter !== undefined) headers["retry-after"] = String(f.retryAfter);
  if (f.shouldRetry !== undefined) headers["x-should-retry"] = String(f.shouldRetry);
  res.writeHead(f.status, headers);
  res.end(JSON.stringify(body));
}

/** A gate a test opens when it wants a held reply to finish. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

/** The CLIs send their own context (cwd, date, sandbox) as tagged text blocks in user messages. */
export function isContextBlock(text: string): boolean {
  return /^<([a-z_-]+)[ >][\s\S]*<\/\1>\s*$/.test(text.trim());
}
