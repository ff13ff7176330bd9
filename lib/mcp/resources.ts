// Two read-only resources beside the tools: the session list and the caller's
// own record, for clients that attach context rather than call a tool.
import { listSessions } from "../verbs/list";
import { showSession } from "../verbs/show";
import { callerId } from "./caller";
import type { ToolContext } from "./tool";

export interface ResourceDefinition {
  uri: string;
  name: string;
  title: string;
  description: string;
  /** Listed only when it can be read (the caller's record needs a caller). */
  available(ctx: ToolContext): boolean;
  read(ctx: ToolContext): Promise<unknown>;
}

export const RESOURCES: readonly ResourceDefinition[] = [
  {
    uri: "spex://sessions",
    name: "sessions",
    title: "Sessions of this repository",
    description: "The rows of `spex session ls --json`: every session that is not archived.",
    available: () => true,
    read: async (ctx) => (await listSessions(ctx.store)).rows,
  },
  {
    uri: "spex://session/self",
    name: "self",
    title: "Your own session",
    description: "Your session's detail as `spex session show --json` prints it: record, full prompt, note.",
    available: (ctx) => callerId(ctx.caller) !== undefined,
    read: async (ctx) => (await showSession(ctx.store, callerId(ctx.caller)!)).json,
  },
];
