// What every route is made of (docs/backend.md): a method, a path pattern and
// a handler that is one call into lib/. The route families live in routes*.ts.
import type { IncomingMessage, ServerResponse } from "node:http";
import { resolveSelector } from "../sessions";
import type { ProjectStore } from "../store";
import type { EventHub } from "./events";
import { httpError } from "./http";
import type { KeyedCreates } from "./keyed";

export interface Reply {
  status: number;
  body: unknown;
}

export interface Instance {
  instanceId: string;
  root: string;
  pid: number;
  startedAt: string;
  version: string;
}

export interface RouteContext {
  store: ProjectStore;
  instance: Instance;
  keyed: KeyedCreates;
  hub: EventHub;
  token: string;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: string[];
}

export interface Route {
  method: "GET" | "POST";
  pattern: RegExp;
  /** Served without the token: it shows nothing a session holds. */
  open?: true;
  /** The reply, or undefined when the handler answered itself (the event stream). */
  handle(ctx: RouteContext): Promise<Reply> | Reply | undefined;
}

export const ok = (body: unknown): Reply => ({ status: 200, body });
export const created = (body: unknown): Reply => ({ status: 201, body });

/** A path segment of the route's pattern, URL-decoded ("" when it cannot be decoded). */
export function pathParam(ctx: RouteContext, i = 0): string {
  try {
    return decodeURIComponent(ctx.params[i] ?? "");
  } catch {
    return "";
  }
}

/** A session named by a caller: `.` would mean the server's own folder, which no caller means. */
export function sessionFromSelector(ctx: RouteContext, selector: string, field: string) {
  if (selector === "." || selector === "") throw httpError("selector_invalid", `${field}: name the session by id, id prefix, name, node or branch`, 400);
  return resolveSelector(ctx.store, selector);
}

/** A session field of a body or query; never the server's own SPEX_SESSION_ID or folder. */
export function optionalSession(ctx: RouteContext, value: string | undefined, field = '"session"'): string | undefined {
  return value === undefined || value === "" ? undefined : sessionFromSelector(ctx, value, field).id;
}

export function requiredSession(ctx: RouteContext, value: string | undefined, field = '"session"'): string {
  const id = optionalSession(ctx, value, field);
  if (!id) throw httpError("field_required", `${field} is required: the session this acts for`, 400);
  return id;
}

/** A list of strings from a body (absent is empty). */
export function stringList(body: Record<string, unknown>, name: string): string[] {
  const v = body[name];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) throw httpError("field_invalid", `"${name}" must be a list of strings`, 400);
  return v as string[];
}
