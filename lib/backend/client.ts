// The CLI's side of a keyed create: one POST /api/sessions with an
// Idempotency-Key, retried with the same key if the connection breaks before
// an answer (the backend answers a retry as a replay). Whatever HTTP status
// comes back is the backend's answer and is reported as it is. The POST goes
// only to a listener that just proved it holds the token (lib/backend/authority).
import { randomUUID } from "node:crypto";
import type { CreateInput, CreateResult } from "../create";
import { SpexError } from "../errors";
import type { SessionRecord } from "../record";
import { resolveSelector } from "../sessions";
import type { ProjectStore } from "../store";
import { type Authority, type AuthorityTarget, decideAuthority, proveListener, unprovenError } from "./authority";
import { createSession, placementGroup } from "../create";
import { groupMembership } from "../coord/groups";
import { loadHttp } from "./lazy";

interface HttpAnswer {
  status: number;
  body: string;
}

/** A create can wait for the agent's readiness: give it minutes, not the probe's budget. */
const CREATE_TIMEOUT_MS = 5 * 60 * 1000;

async function post(url: string, path: string, body: unknown, headers: Record<string, string>): Promise<HttpAnswer> {
  const { request } = await loadHttp();
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const req = request(new URL(path, url), {
      method: "POST",
      agent: false,
      headers: { "content-type": "application/json", accept: "application/json", "content-length": Buffer.byteLength(text), ...headers },
    });
    req.setTimeout(CREATE_TIMEOUT_MS, () => req.destroy(Object.assign(new Error(`no answer within ${CREATE_TIMEOUT_MS / 1000} s`), { code: "ETIMEDOUT" })));
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(text);
  });
}

function answerError(status: number, body: string, url: string): SpexError {
  try {
    const e = (JSON.parse(body) as { error?: { code?: string; message?: string; hint?: string } }).error;
    if (e?.code) {
      const { code: _c, message: _m, hint: _h, ...details } = e as Record<string, unknown>;
      return new SpexError(e.code, e.message ?? `the backend answered ${status}`, { hint: e.hint ?? "", httpStatus: status, details: { ...details, backend: url } });
    }
  } catch {
    // not our error shape: reported below with the status
  }
  return new SpexError("backend_error", `the backend at ${url} answered HTTP ${status}${body ? `: ${body.trim().slice(0, 200)}` : ""}; nothing was created here`, {
    hint: "look at the backend's output; `spex session ls` shows whether the session exists",
    httpStatus: status,
    details: { backend: url, status },
  });
}

const SENT_FIELDS = ["parent", "launcher", "name", "base", "group", "directory", "model", "effort"] as const;

export type RemoteCreate = Pick<CreateInput, "prompt" | "noQueue" | "budget" | (typeof SENT_FIELDS)[number]>;

/** POST the create to the backend that owns the project. */
export async function createRemote(authority: Extract<Authority, { kind: "remote" }>, input: RemoteCreate, key = randomUUID()): Promise<CreateResult> {
  const body: Record<string, unknown> = { prompt: input.prompt };
  for (const k of SENT_FIELDS) if (input[k] !== undefined) body[k] = input[k]!;
  if (input.noQueue) body.noQueue = true;
  if (input.budget) body.budget = input.budget;
  const headers: Record<string, string> = { "idempotency-key": key, authorization: `Bearer ${authority.token}` };
  let answer: HttpAnswer | undefined;
  let lastError: unknown;
  for (let attempt = 0; attempt < 3 && !answer; attempt++) {
    if (attempt > 0) {
      // The backend may have died under the first try and someone else taken its port: prove it again first.
      const proving = await proveListener(authority.url, authority.token);
      if (proving.kind === "unproven") throw unprovenError(authority.url, proving, { retryOf: key });
      if (proving.kind !== "proven") continue;
    }
    try {
      answer = await post(authority.url, "/api/sessions", body, headers);
    } catch (e) {
      lastError = e;
    }
  }
  if (!answer) {
    const cause = (lastError as { code?: string; message?: string })?.code ?? (lastError as Error)?.message ?? String(lastError);
    throw new SpexError("backend_availability_indeterminate", `the backend at ${authority.url} did not answer the create (${cause}); it may or may not have made the session`, {
      hint: `check with \`spex session ls\`; the request's Idempotency-Key was ${key}`,
      details: { url: authority.url, idempotencyKey: key },
    });
  }
  if (answer.status !== 200 && answer.status !== 201) throw answerError(answer.status, answer.body, authority.url);
  let parsed: SessionRecord & { prompt: string; ready: boolean; replayed: boolean; group?: string; queuePosition?: number | null; included?: CreateResult["included"] };
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    throw answerError(answer.status, answer.body, authority.url);
  }
  const { prompt, ready, replayed, group, queuePosition, included, ...record } = parsed;
  return { record: record as SessionRecord, prompt, ready, replayed, group: group ?? "", queuePosition: queuePosition ?? null, ...(included ? { included } : {}) };
}

export interface AuthorityCreateInput extends CreateInput {
  target?: AuthorityTarget;
}

/**
 * `spex session new` through the authority decision: the project's backend
 * when one answers, in-process only when nothing listens.
 */
export async function createWithAuthority(store: ProjectStore, input: AuthorityCreateInput): Promise<CreateResult & { via: string }> {
  const { target, ...create } = input;
  const authority = await decideAuthority(store, target);
  if (authority.kind === "local") return { ...(await createSession(store, create)), via: "local" };
  if (create.noLaunch) {
    throw new SpexError("backend_no_launch", `the backend at ${authority.url} owns session creation here and always launches; --no-launch is not sent to it`, {
      hint: "drop --no-launch (stop the session afterwards if needed), or stop the backend",
      details: { url: authority.url },
    });
  }
  // `.` and other selectors mean the caller's folder and view: send the backend the id they name.
  const parent = create.parent && !authority.explicit ? resolveSelector(store, create.parent, create.cwd).id : create.parent;
  // The calling agent's group is known only here (the backend has no caller identity): send it as the group.
  const group = create.group ?? (authority.explicit ? undefined : placementGroup(groupMembership(store), undefined, [parent ?? "", create.creator ?? ""]) || undefined);
  return { ...(await createRemote(authority, { ...create, parent, group })), via: authority.url };
}
