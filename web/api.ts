// Every call to the backend carries the instance token in a header (never in
// a URL or a cookie, docs/backend.md). The URL brings the token once; it moves
// into this tab's sessionStorage and out of the address bar.
//
// The token goes only to a listener that just proved it holds it (as the CLI
// does, lib/backend/authority.ts): before each connection of the event stream
// the page asks GET /api/instance with a fresh challenge and checks the HMAC
// answer. While the backend is away (restarting), another program may answer
// on its port; calls then wait for the proof instead of knocking with the
// token.

const TOKEN_KEY = "spex-token";

export class ApiError extends Error {
  constructor(message: string, readonly code: string, readonly status: number, readonly details: Record<string, unknown>) {
    super(message);
  }
}

function takeToken(): string {
  const fromUrl = new URLSearchParams(location.search).get("token");
  let token = fromUrl ?? "";
  try {
    if (fromUrl) sessionStorage.setItem(TOKEN_KEY, fromUrl);
    token = fromUrl || sessionStorage.getItem(TOKEN_KEY) || "";
  } catch {
    // storage refused (a sandboxed tab): the token lives for this page only
  }
  // The panel the URL names (#/s/…) stays; only the token leaves the address bar.
  if (fromUrl) history.replaceState(history.state, "", location.pathname + location.hash);
  return token;
}

export const token = takeToken();

/** Keep a token the user pasted (the dashboard URL or the token alone) for this tab; false when it is neither. */
export function keepToken(pasted: string): boolean {
  const text = pasted.trim();
  let found = /^[0-9a-f]{64}$/.test(text) ? text : "";
  if (!found) {
    try {
      found = new URL(text).searchParams.get("token") ?? "";
    } catch {
      found = "";
    }
  }
  if (!/^[0-9a-f]{64}$/.test(found)) return false;
  try {
    sessionStorage.setItem(TOKEN_KEY, found);
  } catch {
    return false;
  }
  return true;
}

/** Called with the refusal's code when the backend says the token is missing or wrong. */
let onUnauthorized: (code: string) => void = () => undefined;
export function whenUnauthorized(fn: (code: string) => void): void {
  onUnauthorized = fn;
}

export function authHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return token ? { ...extra, authorization: `Bearer ${token}` } : extra;
}

// --- the proof -------------------------------------------------------------

export type Proving = { kind: "proven"; instanceId: string } | { kind: "unproven" } | { kind: "down" };

const hex = (bytes: ArrayBuffer): string => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");

/** What the token holder on this page's port answers to `challenge` (lib/backend/proof.ts). */
async function expectedProof(challenge: string): Promise<string | null> {
  // WebCrypto exists only in a secure context (loopback is one); elsewhere the page cannot check.
  if (!crypto.subtle) return null;
  const port = location.port || (location.protocol === "https:" ? "443" : "80");
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(token), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return hex(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`spex-instance-proof-v1\n${port}\n${challenge}`)));
}

/** Ask whoever listens here to prove it holds the token; nothing of ours travels but a random challenge. */
export async function proveInstance(): Promise<Proving> {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  const challenge = hex(bytes.buffer);
  let answer: { instanceId?: unknown; proof?: unknown };
  try {
    const res = await fetch(`/api/instance?challenge=${challenge}`, { cache: "no-store", headers: { accept: "application/json" } });
    if (!res.ok) return { kind: "unproven" };
    answer = (await res.json()) as typeof answer;
  } catch {
    return { kind: "down" };
  }
  const want = await expectedProof(challenge);
  if (want !== null && answer.proof !== want) return { kind: "unproven" };
  return { kind: "proven", instanceId: String(answer.instanceId ?? "") };
}

// Calls wait until the event stream has proved the listener (main.ts says so); a drop makes them wait again.
let proven = false;
let waiters: (() => void)[] = [];
export function setProven(now: boolean): void {
  proven = now;
  if (now) for (const w of waiters.splice(0)) w();
}

const PROOF_WAIT_MS = 15000;

function whenProven(): Promise<void> {
  if (proven) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiters = waiters.filter((w) => w !== go);
      reject(new ApiError("not connected to the backend (it is restarting, or another program answers on its port)", "not_connected", 0, {}));
    }, PROOF_WAIT_MS);
    const go = () => {
      clearTimeout(timer);
      resolve();
    };
    waiters.push(go);
  });
}

export async function api<T>(method: "GET" | "POST", path: string, body?: unknown, extra: Record<string, string> = {}): Promise<T> {
  await whenProven();
  const headers = authHeaders({ accept: "application/json", ...extra });
  if (method !== "GET") headers["content-type"] = "application/json";
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = (await res.json().catch(() => ({}))) as { error?: { code?: string; message?: string; [k: string]: unknown } };
  if (!res.ok) {
    const err = json.error ?? {};
    if (res.status === 401) onUnauthorized(err.code ?? "");
    const { code = "", message = `HTTP ${res.status}`, hint = "", ...details } = err;
    // As the CLI prints it: what happened; what to do [code].
    throw new ApiError(`${message}${hint ? `; ${String(hint)}` : ""}${code ? ` [${code}]` : ""}`, code, res.status, details);
  }
  return json as T;
}

export const sessionPath = (id: string, tail = ""): string => `/api/sessions/${encodeURIComponent(id)}${tail}`;
