// Request plumbing shared by every route: the Host check (DNS rebinding), the
// instance token, size-limited JSON bodies, and the one error shape
// `{"error":{"code","message",…}}`. No CORS header is ever sent.
import type { IncomingMessage, ServerResponse } from "node:http";
import { timingSafeEqual } from "node:crypto";
import { gzipSync } from "node:zlib";
import { SpexError } from "../errors";
import { asSpexError } from "../cli/output";

/** Request bodies above this are refused (a prompt is the largest thing we take). */
export const MAX_BODY_BYTES = 1024 * 1024;

const BASE_HEADERS: Record<string, string> = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};

/** Answers larger than this go gzipped to a client that takes it (the list of 200 sessions: 160 KB → 20 KB). */
const GZIP_FROM_BYTES = 8 * 1024;

/** The encodings a request's Accept-Encoding takes (a `q=0` refuses one). */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const part of (header ?? "").toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (name && (q === undefined || Number(q) > 0)) out.add(name.trim());
  }
  return out;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, acceptEncoding?: string): void {
  const text = JSON.stringify(body) + "\n";
  const headers: Record<string, string | number> = { ...BASE_HEADERS, "content-type": "application/json; charset=utf-8", vary: "Accept-Encoding" };
  if (text.length >= GZIP_FROM_BYTES && acceptedEncodings(acceptEncoding).has("gzip")) {
    const packed = gzipSync(text, { level: 5 });
    res.writeHead(status, { ...headers, "content-encoding": "gzip", "content-length": packed.length });
    res.end(packed);
    return;
  }
  res.writeHead(status, { ...headers, "content-length": Buffer.byteLength(text) });
  res.end(text);
}

export function sendError(res: ServerResponse, error: unknown): void {
  const err = asSpexError(error);
  const status = error instanceof SpexError ? err.httpStatus : 500;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, status, err.toJSON());
}

export function sendAsset(res: ServerResponse, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  res.writeHead(200, { ...BASE_HEADERS, "content-type": type, "content-length": Buffer.byteLength(body), ...extra });
  res.end(body);
}

export function httpError(code: string, message: string, status: number, hint = ""): SpexError {
  return new SpexError(code, message, { hint, httpStatus: status });
}

/** The Host names this server answers to: loopback names (or the bound address) with its own port. */
export function allowedHosts(boundHost: string, port: number): Set<string> {
  const names = new Set(["127.0.0.1", "localhost", "[::1]"]);
  if (boundHost !== "0.0.0.0" && boundHost !== "::") names.add(boundHost.includes(":") ? `[${boundHost}]` : boundHost);
  return new Set([...names].map((n) => `${n}:${port}`));
}

export function checkHost(req: IncomingMessage, allowed: Set<string>): void {
  const host = (req.headers.host ?? "").toLowerCase();
  if (!allowed.has(host)) {
    throw httpError("host_forbidden", `requests for host "${host.slice(0, 100)}" are not served here`, 403, "use the address `spex serve` printed (a loopback name and its port)");
  }
}

/** The token a request presents, from its Authorization header only (never the URL, which ends up in logs). */
export function presentedToken(req: IncomingMessage): string {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "");
  return m ? m[1]! : "";
}

export function checkToken(presented: string, token: string): void {
  if (presented === "") {
    throw httpError("token_required", "this request needs the instance token", 401, "send `Authorization: Bearer <token>`; the token is in SPEX_HOME next to the endpoint record, and in the dashboard URL `spex serve` prints");
  }
  const a = Buffer.from(presented);
  const b = Buffer.from(token);
  if (a.length !== b.length || !timingSafeEqual(a, b)) {
    throw httpError("token_invalid", "the instance token does not match this backend", 401, "a restarted backend has a new token: reopen the URL `spex serve` printed");
  }
}

export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > limit) {
    req.resume();
    throw httpError("body_too_large", `the request body is ${declared} bytes; at most ${limit} are accepted`, 413);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      req.resume();
      throw httpError("body_too_large", `the request body exceeds ${limit} bytes`, 413);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A JSON object body (an empty body is an empty object). */
export async function readJsonObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  const text = await readBody(req);
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw httpError("body_invalid", `the request body is not JSON: ${(e as Error).message}`, 400);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw httpError("body_invalid", "the request body must be a JSON object", 400);
  return value as Record<string, unknown>;
}

/** Refuse fields outside `known`, and any known field whose value is not a string (null counts as absent). */
export function stringFields<K extends string>(body: Record<string, unknown>, known: readonly K[], required: readonly K[] = []): Partial<Record<K, string>> {
  refuseUnknown(body, known);
  const out: Partial<Record<K, string>> = {};
  for (const k of known) {
    const v = body[k];
    if (v === undefined || v === null) continue;
    if (typeof v !== "string") throw httpError("field_invalid", `"${k}" must be a string`, 400);
    out[k] = v;
  }
  for (const k of required) {
    if (!out[k]) throw httpError("field_required", `"${k}" is required`, 400);
  }
  return out;
}

export function booleanField(body: Record<string, unknown>, name: string): boolean {
  const v = body[name];
  if (v === undefined || v === null) return false;
  if (typeof v !== "boolean") throw httpError("field_invalid", `"${name}" must be true or false`, 400);
  return v;
}

export function refuseUnknown(body: Record<string, unknown>, known: readonly string[]): void {
  const unknown = Object.keys(body).filter((k) => !known.includes(k));
  if (unknown.length > 0) {
    throw httpError("unknown_field", `unknown field${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => JSON.stringify(k)).join(", ")}; this route takes ${known.join(", ") || "no fields"}`, 400);
  }
}
