// Who is calling: the server runs inside the agent's own environment, so the
// caller is the session its SPEX_SESSION_ID names, once that value is proven
// a session id (never a path) and a record of this project. Anything else is
// no caller: read tools still answer, the declaring ones refuse, saying why.
import { SpexError } from "../errors";
import { labelOf, shortId } from "../naming";
import { readSession } from "../record";
import { type ProjectStore, isSessionId } from "../store";

export type Caller = { kind: "session"; id: string; label: string } | { kind: "none"; reason: string };

/** Read per call: a session closed while the server runs stops being a caller at once. */
export function identifyCaller(store: ProjectStore, env: NodeJS.ProcessEnv = process.env): Caller {
  const value = env.SPEX_SESSION_ID;
  if (!value) return { kind: "none", reason: "this MCP server runs outside any spex session (SPEX_SESSION_ID is not set)" };
  if (!isSessionId(value)) return { kind: "none", reason: `SPEX_SESSION_ID ${JSON.stringify(value.slice(0, 80))} is not a session id` };
  const reading = readSession(store, value);
  if (reading.kind === "absent") return { kind: "none", reason: `SPEX_SESSION_ID ${shortId(value, 8)} is not a session of ${store.root} (closed, or of another project)` };
  return { kind: "session", id: value, label: reading.kind === "ok" ? labelOf(reading.record) : shortId(value, 8) };
}

/** The calling session's id, or `caller_required` for a tool that acts as the caller. */
export function requireCaller(tool: string, caller: Caller): string {
  if (caller.kind === "session") return caller.id;
  throw new SpexError("caller_required", `${tool} acts as the calling session, and ${caller.reason}`, {
    hint: "call it from an agent that spex started (its pane sets SPEX_SESSION_ID), or use the CLI with --session SEL",
    details: { tool },
    httpStatus: 403,
  });
}

/** The caller's id when there is one (the `mine` marks of listings, a wait's cursor). */
export function callerId(caller: Caller): string | undefined {
  return caller.kind === "session" ? caller.id : undefined;
}
