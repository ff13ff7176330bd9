// Every call to the backend carries the instance token in a header (never in
// a URL or a cookie, docs/backend.md). The URL brings the token once; it moves
// into this tab's sessionStorage and out of the address bar.

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
  if (fromUrl) history.replaceState(null, "", location.pathname);
  return token;
}

export const token = takeToken();

/** Called with the refusal's code when the backend says the token is missing or wrong. */
let onUnauthorized: (code: string) => void = () => undefined;
export function whenUnauthorized(fn: (code: string) => void): void {
  onUnauthorized = fn;
}

export function authHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return token ? { ...extra, authorization: `Bearer ${token}` } : extra;
}

export async function api<T>(method: "GET" | "POST", path: string, body?: unknown, extra: Record<string, string> = {}): Promise<T> {
  const headers = authHeaders({ accept: "application/json", ...extra });
  if (method !== "GET") headers["content-type"] = "application/json";
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = (await res.json().catch(() => ({}))) as { error?: { code?: string; message?: string; [k: string]: unknown } };
  if (!res.ok) {
    const err = json.error ?? {};
    if (res.status === 401) onUnauthorized(err.code ?? "");
    const { code = "", message = `HTTP ${res.status}`, ...details } = err;
    throw new ApiError(`${message}${code ? ` [${code}]` : ""}`, code, res.status, details);
  }
  return json as T;
}

export const sessionPath = (id: string, tail = ""): string => `/api/sessions/${encodeURIComponent(id)}${tail}`;
