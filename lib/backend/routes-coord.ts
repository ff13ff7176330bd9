// Coordination over HTTP (docs/backend.md): tasks, reservations and groups,
// each route one call into lib/coord, answering what the CLI's --json prints.
// A verb that acts for a session names it in the body (`session`, any
// selector but `.`): the server's own SPEX_SESSION_ID or folder never counts.
import {
  DEFAULT_LEASE_TTL_MS,
  claimTask,
  createGroup,
  deleteGroup,
  fileSessions,
  finishTask,
  listGroups,
  listReservations,
  listTasks,
  newTask,
  parseTtl,
  releaseReservations,
  releaseTask,
  removeTask,
  reserve,
} from "../coord";
import { booleanField, httpError, readJsonObject, refuseUnknown, stringFields } from "./http";
import { type Reply, type Route, type RouteContext, created, ok, optionalSession, pathParam, requiredSession, sessionFromSelector, stringList } from "./route";

const querySession = (ctx: RouteContext) => optionalSession(ctx, ctx.url.searchParams.get("session") ?? undefined, '"session"');

async function taskNew(ctx: RouteContext): Promise<Reply> {
  const raw = await readJsonObject(ctx.req);
  refuseUnknown(raw, ["title", "body", "dependsOn", "session"]);
  const { title, body, session } = stringFields({ title: raw.title, body: raw.body, session: raw.session }, ["title", "body", "session"], ["title"]);
  const me = optionalSession(ctx, session);
  return created(await newTask(ctx.store, me, { title: title!, body: body ?? "", dependsOn: stringList(raw, "dependsOn") }));
}

async function taskClaim(ctx: RouteContext): Promise<Reply> {
  const { session, task } = stringFields(await readJsonObject(ctx.req), ["session", "task"] as const);
  return ok(await claimTask(ctx.store, requiredSession(ctx, session), task || undefined));
}

async function taskVerb(ctx: RouteContext, verb: "finish" | "release" | "rm"): Promise<Reply> {
  const raw = await readJsonObject(ctx.req);
  const id = pathParam(ctx);
  if (verb === "rm") {
    refuseUnknown(raw, ["session", "force"]);
    const { session } = stringFields({ session: raw.session }, ["session"]);
    return ok({ deleted: await removeTask(ctx.store, optionalSession(ctx, session), id, booleanField(raw, "force")) });
  }
  const { session } = stringFields(raw, ["session"] as const);
  const me = requiredSession(ctx, session);
  return ok(verb === "finish" ? await finishTask(ctx.store, me, id) : await releaseTask(ctx.store, me, id));
}

async function reserveRoute(ctx: RouteContext): Promise<Reply> {
  const raw = await readJsonObject(ctx.req);
  refuseUnknown(raw, ["session", "patterns", "shared", "ttl", "note"]);
  const { session, ttl, note } = stringFields({ session: raw.session, ttl: raw.ttl, note: raw.note }, ["session", "ttl", "note"]);
  const me = requiredSession(ctx, session);
  const ttlMs = ttl === undefined ? DEFAULT_LEASE_TTL_MS : parseTtl(ttl);
  return ok(await reserve(ctx.store, me, { patterns: stringList(raw, "patterns"), mode: booleanField(raw, "shared") ? "shared" : "exclusive", ttlMs, note: note ?? "" }));
}

async function reserveRelease(ctx: RouteContext): Promise<Reply> {
  const raw = await readJsonObject(ctx.req);
  refuseUnknown(raw, ["session", "patterns"]);
  const { session } = stringFields({ session: raw.session }, ["session"]);
  return ok({ released: await releaseReservations(ctx.store, requiredSession(ctx, session), stringList(raw, "patterns")) });
}

async function groupNew(ctx: RouteContext): Promise<Reply> {
  const { path, dir } = stringFields(await readJsonObject(ctx.req), ["path", "dir"] as const, ["path"]);
  return created(await createGroup(ctx.store, path!, dir ?? ""));
}

async function groupRm(ctx: RouteContext): Promise<Reply> {
  const { path } = stringFields(await readJsonObject(ctx.req), ["path"] as const, ["path"]);
  return ok(await deleteGroup(ctx.store, path!));
}

async function groupFile(ctx: RouteContext): Promise<Reply> {
  const raw = await readJsonObject(ctx.req);
  refuseUnknown(raw, ["group", "sessions"]);
  // "" (or "/") files them in the root, as the CLI's GROUP does.
  if (typeof raw.group !== "string") throw httpError("field_required", '"group" is required ("" is the root)', 400);
  const sessions = stringList(raw, "sessions");
  if (sessions.length === 0) throw httpError("field_required", '"sessions" must name at least one session', 400);
  const ids = sessions.map((s) => sessionFromSelector(ctx, s, '"sessions"').id);
  return ok(await fileSessions(ctx.store, raw.group, ids));
}

const ID = "([^/]+)";
export const COORD_ROUTES: Route[] = [
  { method: "GET", pattern: /^\/api\/tasks$/, handle: (c) => ok({ tasks: listTasks(c.store, querySession(c)) }) },
  { method: "POST", pattern: /^\/api\/tasks$/, handle: taskNew },
  { method: "POST", pattern: /^\/api\/tasks\/claim$/, handle: taskClaim },
  ...(["finish", "release", "rm"] as const).map((verb): Route => ({ method: "POST", pattern: new RegExp(`^/api/tasks/${ID}/${verb}$`), handle: (c) => taskVerb(c, verb) })),
  { method: "GET", pattern: /^\/api\/reservations$/, handle: (c) => ok({ reservations: listReservations(c.store, querySession(c)) }) },
  { method: "POST", pattern: /^\/api\/reservations$/, handle: reserveRoute },
  { method: "POST", pattern: /^\/api\/reservations\/release$/, handle: reserveRelease },
  { method: "GET", pattern: /^\/api\/groups$/, handle: (c) => ok({ groups: listGroups(c.store) }) },
  { method: "POST", pattern: /^\/api\/groups$/, handle: groupNew },
  { method: "POST", pattern: /^\/api\/groups\/rm$/, handle: groupRm },
  { method: "POST", pattern: /^\/api\/groups\/file$/, handle: groupFile },
];
