// The JSON API (docs/backend.md). Every handler is one call into lib/: the
// backend owns no invariant of its own, the record lock does. Every route
// needs the instance token except the ones marked `open` (issue 11): what the
// others answer (screens, prompts, notes, messages, events) is not in any file
// another local user can read, so a loopback port must not hand it out either.
import { createSession } from "../create";
import { type BudgetSpec, checkBudgetSpec } from "../attention/budget";
import { SpexError } from "../errors";
import { detailOf, listRows, parseHistory, readSessionScreen, renameSession, resolveSelector } from "../sessions";
import { buildSnapshot } from "../snapshot";
import { archiveSession, closeSession, quarantineRecord, restoreArchived, restoreRecord, resumeAll, sessionPaneTarget, stopSession } from "../teardown";
import { OFFLINE_REASONS, type OfflineReason } from "../survive/reason";
import { STATUS_WORDS } from "../verbs/list";
import { raisedJson, resumeOrRaise } from "../verbs/resume";
import { capturePane } from "../tmux";
import { eventsAfter, lastSeq, reparentSession, resolveSender, sendMessage, withDelivery } from "../comms";
import { booleanField, httpError, readJsonObject, refuseUnknown, stringFields } from "./http";
import { checkIdempotencyKey } from "./keyed";
import { CHALLENGE, instanceProof } from "./proof";
import { REVIEW_ROUTES } from "./review-routes";
import { type Reply, type Route, type RouteContext, ok, pathParam, sessionFromSelector } from "./route";
import { COORD_ROUTES } from "./routes-coord";
import { TERMINAL_ROUTES } from "./routes-terminals";
import { PANE_ROUTES } from "./pane-routes";

export type { Instance, Reply, Route, RouteContext } from "./route";

/** Lines of scrollback a live capture includes. */
const SCREEN_HISTORY = 200;

/** The session a path selector names. */
const sessionReading = (ctx: RouteContext) => sessionFromSelector(ctx, pathParam(ctx), "the path");

const sessionId = (ctx: RouteContext): string => sessionReading(ctx).id;

/** Library results may carry the RecordChange (whole records and the store): answer without it. */
function withoutChange<T extends object>(result: T): Omit<T, "change"> {
  const { change: _c, ...rest } = result as T & { change?: unknown };
  return rest;
}

/** `budget`: { usd?, tokens?, hard?, scope? } (lib/attention), checked as the CLI's flags are. */
function budgetField(v: unknown): BudgetSpec | undefined {
  if (v === undefined || v === null) return undefined;
  const o = v as Record<string, unknown>;
  const numberOrAbsent = (x: unknown) => x === undefined || typeof x === "number";
  if (typeof v !== "object" || Array.isArray(v) || !numberOrAbsent(o.usd) || !numberOrAbsent(o.tokens) || !(o.hard === undefined || typeof o.hard === "boolean") || !(o.scope === undefined || o.scope === "session" || o.scope === "tree")) {
    throw httpError("field_invalid", '"budget" is an object { "usd": number, "tokens": number, "hard": boolean, "scope": "session" | "tree" }', 400);
  }
  return checkBudgetSpec({ usd: o.usd as number | undefined, tokens: o.tokens as number | undefined, hard: o.hard as boolean | undefined, scope: o.scope as BudgetSpec["scope"] });
}

const CREATE_FIELDS = ["prompt", "parent", "launcher", "name", "base", "group", "directory", "model", "effort"] as const;

/** `sandbox` of a create: on (or true), no-network, off, or absent (the launcher's default). */
function sandboxField(v: unknown): "on" | "no-network" | "off" | undefined {
  if (v === undefined || v === null || v === "" || v === false) return undefined;
  if (v === true) return "on";
  if (v === "on" || v === "no-network" || v === "off") return v;
  throw httpError("field_invalid", '"sandbox" must be true, "on", "no-network" or "off"', 400);
}

async function create(ctx: RouteContext): Promise<Reply> {
  const key = checkIdempotencyKey(ctx.req.headers["idempotency-key"]);
  const raw = await readJsonObject(ctx.req);
  const noQueue = booleanField(raw, "noQueue");
  const budget = budgetField(raw.budget);
  const sandbox = sandboxField(raw.sandbox);
  const { noQueue: _n, budget: _b, sandbox: _s, ...strings } = raw;
  const body = stringFields(strings, CREATE_FIELDS, ["prompt"]);
  if (body.parent === ".") throw httpError("selector_invalid", '"parent": "." would mean the server\'s own folder; send the parent\'s id', 400);
  const result = await ctx.keyed.run(key, () =>
    createSession(ctx.store, {
      prompt: body.prompt!,
      parent: body.parent || undefined,
      launcher: body.launcher || undefined,
      name: body.name,
      base: body.base || undefined,
      // Absent: the parent's group (the server's own SPEX_SESSION_ID is nobody's creator).
      group: body.group,
      directory: body.directory || undefined,
      model: body.model || undefined,
      effort: body.effort || undefined,
      sandbox,
      noQueue,
      budget,
      idempotencyKey: key,
    }),
  );
  return {
    status: result.replayed ? 200 : 201,
    body: { ...result.record, prompt: result.prompt, ready: result.ready, replayed: result.replayed, group: result.group, queuePosition: result.queuePosition, ...(result.included ? { included: result.included } : {}) },
  };
}

async function send(ctx: RouteContext): Promise<Reply> {
  const raw = await readJsonObject(ctx.req);
  refuseUnknown(raw, ["text", "keys", "from", "deliver", "replyTo"]);
  const { text, from, replyTo } = stringFields({ text: raw.text, from: raw.from, replyTo: raw.replyTo }, ["text", "from", "replyTo"]);
  const keys = raw.keys ?? [];
  if (!Array.isArray(keys) || keys.some((k) => typeof k !== "string")) throw httpError("field_invalid", '"keys" must be a list of tmux key names', 400);
  const target = sessionId(ctx);
  // No `from` is the dashboard's user, never whatever SPEX_SESSION_ID the server was started with.
  const sender = from ? resolveSender(ctx.store, from) : { kind: "user" as const };
  const deliver = raw.deliver === undefined ? true : booleanField(raw, "deliver");
  return ok(await sendMessage(ctx.store, { target, from: sender, text: text ?? "", keys: keys as string[], deliver, replyTo: replyTo || undefined }));
}

async function lifecycle(ctx: RouteContext, verb: string): Promise<Reply> {
  const body = await readJsonObject(ctx.req);
  const id = sessionId(ctx);
  switch (verb) {
    case "stop":
      refuseUnknown(body, []);
      return ok(withoutChange(await stopSession(ctx.store, id)));
    case "archive":
      refuseUnknown(body, ["stop", "restore"]);
      if (booleanField(body, "restore")) {
        if (booleanField(body, "stop")) throw httpError("usage", '"restore" and "stop" do not go together', 400);
        return ok(withoutChange(await restoreArchived(ctx.store, id)));
      }
      return ok(withoutChange(await archiveSession(ctx.store, id, { stop: booleanField(body, "stop") })));
    case "resume": {
      // `budget` { usd?, tokens? }: a new limit first, as `resume --budget-usd/--budget-tokens`.
      refuseUnknown(body, ["force", "budget"]);
      const budget = budgetField(body.budget);
      const answer = await resumeOrRaise(ctx.store, id, { force: booleanField(body, "force"), budget });
      return ok(answer.kind === "raised" ? raisedJson(id, answer.raised) : answer.result);
    }
    case "close":
      refuseUnknown(body, ["force"]);
      return ok({ ...(await closeSession(ctx.store, id, { force: booleanField(body, "force") })), closed: true });
    case "rename": {
      const { name } = stringFields(body, ["name"]);
      if (name === undefined) throw httpError("field_required", '"name" is required ("" clears it)', 400);
      const change = await renameSession(ctx.store, id, name);
      return ok({ id, name, changed: change !== undefined });
    }
  }
  throw httpError("not_found", `no action "${verb}"`, 404);
}

function wordList(body: Record<string, unknown>, field: string, known: readonly string[]): string[] | undefined {
  const v = body[field];
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.some((w) => typeof w !== "string" || !known.includes(w))) throw httpError("field_invalid", `"${field}" is a list of ${known.join(", ")}`, 400);
  return v as string[];
}

/** `spex session resume --all` for this project (docs/survive.md): { dryRun?, note?, group?, status?: [..], reason?: [..] }. */
async function resumeFleet(ctx: RouteContext): Promise<Reply> {
  const body = await readJsonObject(ctx.req);
  refuseUnknown(body, ["dryRun", "note", "group", "status", "reason"]);
  const { note, group } = stringFields({ note: body.note, group: body.group }, ["note", "group"]);
  const reasons = wordList(body, "reason", OFFLINE_REASONS) as OfflineReason[] | undefined;
  const statuses = wordList(body, "status", STATUS_WORDS);
  return ok(await resumeAll([ctx.store], { reasons, statuses, group: group || undefined }, { dryRun: booleanField(body, "dryRun"), note: note || undefined }));
}

async function reparent(ctx: RouteContext): Promise<Reply> {
  const body = await readJsonObject(ctx.req);
  refuseUnknown(body, ["children", "to"]);
  const children = body.children;
  if (!Array.isArray(children) || children.length === 0 || children.some((c) => typeof c !== "string")) {
    throw httpError("field_invalid", '"children" must be a non-empty list of session selectors', 400);
  }
  if (body.to !== null && typeof body.to !== "string") throw httpError("field_invalid", '"to" must be a session selector, or null to detach', 400);
  const to = body.to ? resolveSelector(ctx.store, body.to).id : null;
  const ids = (children as string[]).map((c) => resolveSelector(ctx.store, c).id);
  const results = [];
  for (const id of ids) results.push(await reparentSession(ctx.store, id, to));
  return ok({ results });
}

function timeline(ctx: RouteContext): Reply {
  const id = sessionId(ctx);
  const tail = ctx.url.searchParams.get("tail");
  const last = lastSeq(ctx.store, id);
  // `tail=N` reads the newest N events; `after=S` resumes after a sequence the caller already has.
  const after = tail !== null ? Math.max(0, last - Number(tail)) : Number(ctx.url.searchParams.get("after") ?? "0");
  const limit = Number(ctx.url.searchParams.get("limit") ?? "1000");
  if (!Number.isInteger(after) || after < 0) throw httpError("query_invalid", '"after" and "tail" must be whole numbers (0 or more)', 400);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10000) throw httpError("query_invalid", '"limit" must be between 1 and 10000', 400);
  return ok({ id, events: withDelivery(ctx.store, eventsAfter(ctx.store, id, after, limit)), lastSeq: last });
}

/** Detail with the full prompt; `?capture=1` adds the pane as it is now (display text, never parsed). */
function detail(ctx: RouteContext): Reply {
  const reading = sessionReading(ctx);
  const d = detailOf(ctx.store, reading);
  if (!d) throw new SpexError("session_not_found", `no session ${ctx.params[0]}`, { httpStatus: 404 });
  let screen: string | null = null;
  if (ctx.url.searchParams.get("capture") === "1" && reading.kind === "ok" && reading.record.tmux_session && !reading.record.stopped) {
    screen = capturePane(reading.record.tmux_socket, sessionPaneTarget(reading.record.tmux_session), SCREEN_HISTORY) ?? null;
  }
  return ok({ ...d, screen });
}

/** The screen as `spex session read --json` prints it: `?history=N&styled=1`. */
function read(ctx: RouteContext): Reply {
  const reading = sessionReading(ctx);
  const history = parseHistory(ctx.url.searchParams.get("history") ?? undefined);
  return ok(readSessionScreen(ctx.store, reading, { history, styled: ctx.url.searchParams.get("styled") === "1" }));
}

const QUARANTINE_FIELDS = ["id", "adapter", "thread", "tmux", "worktree", "branch"] as const;

/** `spex session quarantine ID …`: the id is a full id (a corrupt record answers no other selector). */
async function quarantine(ctx: RouteContext): Promise<Reply> {
  const body = stringFields(await readJsonObject(ctx.req), QUARANTINE_FIELDS, ["id", "adapter", "tmux", "worktree", "branch"]);
  const result = await quarantineRecord(ctx.store, body.id!, {
    adapter: body.adapter!,
    thread: body.thread ?? "",
    tmux: body.tmux!,
    worktree: body.worktree!,
    branch: body.branch!,
  });
  return ok({ ...result, quarantined: true });
}

async function unquarantine(ctx: RouteContext): Promise<Reply> {
  const body = stringFields(await readJsonObject(ctx.req), ["id"] as const, ["id"]);
  return ok({ ...(await restoreRecord(ctx.store, body.id!)), restored: true });
}

/**
 * Who serves, for the CLI's authority probe. `?challenge=HEX` adds `proof`, the
 * token holder's answer to it (lib/backend/proof.ts); the token never leaves.
 */
function instance(ctx: RouteContext): Reply {
  const challenge = ctx.url.searchParams.get("challenge");
  if (challenge === null) return ok(ctx.instance);
  if (!CHALLENGE.test(challenge)) throw httpError("query_invalid", '"challenge" must be 32 to 128 lowercase hex digits', 400);
  return ok({ ...ctx.instance, proof: instanceProof(ctx.token, challenge, ctx.req.socket.localPort ?? 0) });
}

/**
 * The rows, with the id of the last event frame published before they were
 * read: a page that loads them beside /api/events can tell whether a frame
 * went out between the two (its hello's id is higher) and load them again.
 */
function listSessions(ctx: RouteContext): Reply {
  const eventId = ctx.hub.lastId;
  return ok({ sessions: listRows(ctx.store), eventId });
}

const ID = "([^/]+)";
export const ROUTES: Route[] = [
  { method: "GET", pattern: /^\/api\/instance$/, open: true, handle: instance },
  { method: "GET", pattern: /^\/api\/events$/, handle: (c) => void c.hub.attach(c.req, c.res) },
  { method: "GET", pattern: /^\/api\/sessions$/, handle: listSessions },
  { method: "POST", pattern: /^\/api\/sessions$/, handle: create },
  { method: "POST", pattern: /^\/api\/sessions\/reparent$/, handle: reparent },
  { method: "POST", pattern: /^\/api\/sessions\/resume-all$/, handle: resumeFleet },
  { method: "GET", pattern: new RegExp(`^/api/sessions/${ID}$`), handle: detail },
  { method: "GET", pattern: new RegExp(`^/api/sessions/${ID}/timeline$`), handle: timeline },
  { method: "GET", pattern: new RegExp(`^/api/sessions/${ID}/read$`), handle: read },
  { method: "POST", pattern: new RegExp(`^/api/sessions/${ID}/send$`), handle: send },
  ...["stop", "archive", "resume", "close", "rename"].map(
    (verb): Route => ({ method: "POST", pattern: new RegExp(`^/api/sessions/${ID}/${verb}$`), handle: (c) => lifecycle(c, verb) }),
  ),
  ...REVIEW_ROUTES,
  { method: "POST", pattern: /^\/api\/quarantine$/, handle: quarantine },
  { method: "POST", pattern: /^\/api\/quarantine\/restore$/, handle: unquarantine },
  { method: "GET", pattern: /^\/api\/snapshot$/, handle: async (c) => ok(await buildSnapshot(c.store)) },
  ...COORD_ROUTES,
  ...TERMINAL_ROUTES,
  ...PANE_ROUTES,
];

export function matchRoute(method: string, path: string): { route: Route; params: string[] } | { allowed: string[] } | undefined {
  const allowed: string[] = [];
  for (const route of ROUTES) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    if (route.method === method) return { route, params: m.slice(1) };
    allowed.push(route.method);
  }
  return allowed.length ? { allowed } : undefined;
}
