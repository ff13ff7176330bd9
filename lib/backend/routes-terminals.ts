// Terminals over HTTP (docs/backend.md): each route one call into
// lib/terminals, answering what `spex terminal … --json` prints. A terminal
// runs commands as you: these routes, like every route but the identity
// probe, need the instance token.
import { parseHistory } from "../sessions";
import { closeTerminal, listTerminals, newTerminal, readTerminalScreen, resolveTerminal, sendToTerminal } from "../terminals";
import { booleanField, readJsonObject, refuseUnknown, stringFields } from "./http";
import { type Reply, type Route, type RouteContext, created, ok, optionalSession, pathParam, stringList } from "./route";

const terminal = (ctx: RouteContext) => resolveTerminal(ctx.store, pathParam(ctx));

async function open(ctx: RouteContext): Promise<Reply> {
  const raw = await readJsonObject(ctx.req);
  refuseUnknown(raw, ["session", "name", "dir", "command"]);
  const { session, name, dir } = stringFields({ session: raw.session, name: raw.name, dir: raw.dir }, ["session", "name", "dir"]);
  const record = await newTerminal(ctx.store, { session: optionalSession(ctx, session), name, dir, command: stringList(raw, "command") });
  return created(listTerminals(ctx.store, { id: record.terminal_id })[0] ?? { id: record.terminal_id, name: record.name });
}

async function send(ctx: RouteContext): Promise<Reply> {
  const raw = await readJsonObject(ctx.req);
  refuseUnknown(raw, ["text", "keys", "enter"]);
  const { text } = stringFields({ text: raw.text }, ["text"]);
  const enter = raw.enter === undefined ? true : booleanField(raw, "enter");
  return ok(sendToTerminal(terminal(ctx), { text: text ?? "", keys: stringList(raw, "keys"), enter }));
}

function read(ctx: RouteContext): Reply {
  const history = parseHistory(ctx.url.searchParams.get("history") ?? undefined);
  return ok(readTerminalScreen(terminal(ctx), { history, styled: ctx.url.searchParams.get("styled") === "1" }));
}

async function close(ctx: RouteContext): Promise<Reply> {
  refuseUnknown(await readJsonObject(ctx.req), []);
  return ok({ ...closeTerminal(ctx.store, terminal(ctx)), closed: true });
}

const ID = "([^/]+)";
export const TERMINAL_ROUTES: Route[] = [
  {
    method: "GET",
    pattern: /^\/api\/terminals$/,
    handle: (c) => ok({ terminals: listTerminals(c.store, { session: optionalSession(c, c.url.searchParams.get("session") ?? undefined) }) }),
  },
  { method: "POST", pattern: /^\/api\/terminals$/, handle: open },
  { method: "GET", pattern: new RegExp(`^/api/terminals/${ID}/read$`), handle: read },
  { method: "POST", pattern: new RegExp(`^/api/terminals/${ID}/send$`), handle: send },
  { method: "POST", pattern: new RegExp(`^/api/terminals/${ID}/close$`), handle: close },
];
