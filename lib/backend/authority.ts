// Who creates the session (DESIGN.md §5 step 2): a served backend of this
// project owns creation; the in-process path runs only when nothing listens.
// `GET /api/instance` gets its own 1500 ms budget. Only a failure whose whole
// cause chain is ECONNREFUSED proves no backend is there; a silent or broken
// transport (timeout, reset, DNS…) is indeterminate. An HTTP answer owns the
// create only when it proves it holds this project's token (issue 11): the
// probe carries a fresh challenge and the answer must carry its proof
// (lib/backend/proof.ts). Until then neither the token nor a prompt is sent.
import { SpexError } from "../errors";
import { resolveMainRoot } from "../git/main-root";
import type { ProjectStore } from "../store";
import { type EndpointRecord, endpointAlive, readEndpoint, tokenFor } from "./endpoint";
import { loadHttp } from "./lazy";
import { newChallenge, proofMatches } from "./proof";

export const AUTHORITY_BUDGET_MS = 1500;

export interface AuthorityTarget {
  /** `--api URL`: an explicit backend (no project comparison). */
  api?: string;
  /** `--port N`: an explicit backend on this machine's loopback. */
  port?: number;
}

export interface InstanceIdentity {
  instanceId?: string;
  root?: string;
  pid?: number;
  version?: string;
}

export type Authority =
  | { kind: "local"; reason: "no_endpoint" | "refused"; url?: string }
  | { kind: "remote"; url: string; token: string; explicit: boolean; instance: InstanceIdentity };

type ProbeOutcome =
  | { kind: "response"; status: number; body: string }
  | { kind: "refused" }
  | { kind: "indeterminate"; cause: string };

/** True when every error in the chain (causes, aggregated attempts) is ECONNREFUSED. */
export function onlyConnectionRefused(error: unknown, depth = 0): boolean {
  if (depth > 8 || !error || typeof error !== "object") return false;
  const e = error as { code?: unknown; cause?: unknown; errors?: unknown };
  const nested: unknown[] = [];
  if (Array.isArray(e.errors)) nested.push(...e.errors);
  if (e.cause !== undefined) nested.push(e.cause);
  if (e.code !== undefined && e.code !== "ECONNREFUSED") return false;
  if (e.code === undefined && nested.length === 0) return false;
  return nested.every((n) => onlyConnectionRefused(n, depth + 1));
}

function describeFailure(error: unknown): string {
  const e = error as { code?: string; message?: string };
  return e?.code ? `${e.code}${e.message ? ` (${e.message})` : ""}` : String(e?.message ?? error);
}

/** One GET within `budgetMs`, answering what the transport proved. */
export async function probeInstance(baseUrl: string, budgetMs = AUTHORITY_BUDGET_MS, challenge?: string): Promise<ProbeOutcome> {
  const { request } = await loadHttp();
  return new Promise((resolve) => {
    let settled = false;
    let status = 0;
    const finish = (o: ProbeOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(o);
    };
    let req: import("node:http").ClientRequest;
    try {
      const path = challenge ? `/api/instance?challenge=${challenge}` : "/api/instance";
      req = request(new URL(path, baseUrl), { method: "GET", headers: { accept: "application/json" }, agent: false });
    } catch (e) {
      return finish({ kind: "indeterminate", cause: describeFailure(e) });
    }
    const timer = setTimeout(() => {
      // Headers already in hand prove the backend; only a silent transport is indeterminate.
      if (status) finish({ kind: "response", status, body: "" });
      else finish({ kind: "indeterminate", cause: `no answer within ${budgetMs} ms` });
      req.destroy();
    }, budgetMs);
    req.on("response", (res) => {
      status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => finish({ kind: "response", status, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", () => finish({ kind: "response", status, body: "" }));
    });
    req.on("error", (e) => {
      if (status) finish({ kind: "response", status, body: "" });
      else if (onlyConnectionRefused(e)) finish({ kind: "refused" });
      else finish({ kind: "indeterminate", cause: describeFailure(e) });
    });
    req.end();
  });
}

/** What a listener proved: that it holds `token`, or why not. */
export type Proving =
  | { kind: "proven"; instance: InstanceIdentity }
  | { kind: "refused" }
  | { kind: "indeterminate"; cause: string }
  | { kind: "unproven"; status: number; why: "no_token" | "no_proof" };

function portOf(url: string): number {
  const u = new URL(url);
  return Number(u.port) || 80;
}

/** Ask the listener at `url` to prove it holds `token`; the token itself is never sent. */
export async function proveListener(url: string, token: string | undefined, budgetMs = AUTHORITY_BUDGET_MS): Promise<Proving> {
  const challenge = newChallenge();
  const outcome = await probeInstance(url, budgetMs, challenge);
  if (outcome.kind !== "response") return outcome;
  if (!token) return { kind: "unproven", status: outcome.status, why: "no_token" };
  let body: (InstanceIdentity & { proof?: unknown }) | undefined;
  try {
    body = outcome.status === 200 ? (JSON.parse(outcome.body) as InstanceIdentity & { proof?: unknown }) : undefined;
  } catch {
    body = undefined;
  }
  if (!body || typeof body !== "object" || !proofMatches(body.proof, token, challenge, portOf(url))) return { kind: "unproven", status: outcome.status, why: "no_proof" };
  const { proof: _p, ...instance } = body;
  return { kind: "proven", instance };
}

/** The refusal for a listener that could not prove it is ours: nothing was sent, nothing made. */
export function unprovenError(url: string, proving: Extract<Proving, { kind: "unproven" }>, opts: { recorded?: EndpointRecord; retryOf?: string } = {}): SpexError {
  const { recorded, retryOf } = opts;
  const port = portOf(url);
  const gone = recorded !== undefined && !endpointAlive(recorded);
  const hint =
    proving.why === "no_token"
      ? `no token is known for ${url}: set SPEX_API_TOKEN to that backend's token (its \`spex serve --json\` prints it)`
      : gone
        ? `the backend recorded there (pid ${recorded!.pid}) is gone and something else answers on port ${port}: find out what listens there; \`spex serve\` starts a new backend, or creates run in-process once nothing listens`
        : `if it is your own backend from an older spex, restart it (\`spex serve\`); otherwise find out what listens on port ${port}`;
  const outcome = retryOf
    ? "the create was not sent again (the first try, to the proven backend, may have made the session: `spex session ls` shows it)"
    : "neither the prompt nor the token was sent, and nothing was created";
  return new SpexError("backend_unproven", `the server at ${url} did not prove it is this project's backend (HTTP ${proving.status}); ${outcome}`, {
    hint,
    details: { url, status: proving.status, reason: gone ? "recorded_backend_gone" : proving.why, ...(retryOf ? { idempotencyKey: retryOf } : {}) },
  });
}

function explicitUrl(target: AuthorityTarget): string | undefined {
  if (target.api) {
    let u: URL;
    try {
      u = new URL(target.api);
    } catch {
      throw new SpexError("usage", `--api ${target.api} is not a URL`, { hint: "for example --api http://127.0.0.1:7420", exitCode: 2 });
    }
    if (u.protocol !== "http:") throw new SpexError("usage", `--api must be an http:// URL, not ${u.protocol}`, { hint: "the backend serves plain HTTP on loopback", exitCode: 2 });
    return u.origin;
  }
  if (target.port !== undefined) {
    if (!Number.isInteger(target.port) || target.port < 1 || target.port > 65535) {
      throw new SpexError("usage", `--port ${target.port} is not a TCP port`, { hint: "a number from 1 to 65535", exitCode: 2 });
    }
    return `http://127.0.0.1:${target.port}`;
  }
  return undefined;
}

/** Decide who creates: this process, or the backend that owns the project. */
export async function decideAuthority(store: ProjectStore, target: AuthorityTarget = {}, budgetMs = AUTHORITY_BUDGET_MS): Promise<Authority> {
  const explicit = explicitUrl(target);
  // Reading the recorded endpoint is discovery: it does not spend the probe's budget.
  const recorded = explicit ? undefined : readEndpoint(store);
  const url = explicit ?? recorded?.url;
  if (!url) return { kind: "local", reason: "no_endpoint" };
  const token = tokenFor(url, explicit ? undefined : store);
  const proving = await proveListener(url, token, budgetMs);
  if (proving.kind === "refused") return { kind: "local", reason: "refused", url };
  if (proving.kind === "indeterminate") {
    throw new SpexError("backend_availability_indeterminate", `could not tell whether the backend at ${url} is running: ${proving.cause}; nothing was created`, {
      hint: explicit
        ? "check the address, or retry once it answers"
        : `retry once it answers; if no backend should be running, stop whatever holds that address or run \`spex serve\` to replace the record`,
      details: { url, cause: proving.cause },
    });
  }
  if (proving.kind === "unproven") throw unprovenError(url, proving, { recorded });
  const instance = proving.instance;
  if (!explicit && typeof instance.root === "string" && instance.root !== "") {
    // Both roots through the one resolver: a backend started from a linked worktree is the same project.
    const served = resolveMainRoot(instance.root) ?? instance.root;
    if (served !== store.root) {
      throw new SpexError("backend_project_mismatch", `the backend recorded for ${store.root} at ${url} serves another project (${served}); nothing was created`, {
        hint: "start this project's own backend with `spex serve`, or pass --api/--port to use that one on purpose",
        details: { url, served, root: store.root },
      });
    }
  }
  return { kind: "remote", url, token: token!, explicit: !!explicit, instance };
}
