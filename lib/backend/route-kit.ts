// What every route module shares: the route and context shapes, and the
// session a path names. Route modules (routes.ts, review-routes.ts,
// pane-routes.ts) build on this file, never on each other.
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

/** A path segment standing for a session selector. */
export const ID = "([^/]+)";

/** The session a path selector names; `.` would mean the server's own folder, which no caller means. */
export function sessionReading(ctx: RouteContext) {
  let selector: string;
  try {
    selector = decodeURIComponent(ctx.params[0]!);
  } catch {
    selector = "";
  }
  if (selector === "." || selector === "") throw httpError("selector_invalid", "name the session by id, id prefix, name, node or branch", 400);
  return resolveSelector(ctx.store, selector);
}

export const sessionId = (ctx: RouteContext): string => sessionReading(ctx).id;
