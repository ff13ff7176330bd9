// The session a coordination verb acts for: --session SEL, else
// SPEX_SESSION_ID, else the worktree the caller is in. A claim or a lease in
// the name of a session that does not exist would never be cleaned up, so an
// unknown session is refused.
import { SpexError } from "../errors";
import { labelOf, shortId } from "../naming";
import { readSession } from "../record";
import { matchSelector, readAll, resolveSelector } from "../sessions";
import { type ProjectStore, sessionIdFromEnv } from "../store";

function refuseAbsent(store: ProjectStore, id: string): string {
  if (readSession(store, id).kind === "absent") {
    throw new SpexError("session_not_found", `session ${id} has no record`, {
      hint: "check SPEX_SESSION_ID or pass --session SEL (see `spex session ls --all`)",
      httpStatus: 404,
    });
  }
  return id;
}

export function actingSession(store: ProjectStore, explicit: string | undefined, cwd = process.cwd()): string {
  if (explicit) return resolveSelector(store, explicit, cwd).id;
  const fromEnv = sessionIdFromEnv();
  if (fromEnv) return refuseAbsent(store, fromEnv);
  try {
    return matchSelector(readAll(store), ".", cwd).id;
  } catch (e) {
    if (e instanceof SpexError && e.code === "session_not_found") {
      throw new SpexError("session_not_found", `no session owns the worktree at ${cwd}`, {
        hint: "run this inside a session's worktree, set SPEX_SESSION_ID, or pass --session SEL",
        httpStatus: 404,
      });
    }
    throw e;
  }
}

/** The acting session when one can be named; readers (ls) work without one. */
export function optionalActingSession(store: ProjectStore, explicit: string | undefined, cwd = process.cwd()): string | undefined {
  if (explicit) return actingSession(store, explicit, cwd);
  // A pane whose session was closed still carries SPEX_SESSION_ID: it reads as nobody, not as an error.
  const fromEnv = sessionIdFromEnv();
  if (fromEnv) return readSession(store, fromEnv).kind === "absent" ? undefined : fromEnv;
  try {
    return matchSelector(readAll(store), ".", cwd).id;
  } catch {
    return undefined;
  }
}

/** What people see for a session id: its label, or the short id when the record is unreadable. */
export function sessionLabel(store: ProjectStore, id: string): string {
  if (!id) return "";
  const reading = readSession(store, id);
  return reading.kind === "ok" ? labelOf(reading.record) : shortId(id, 8);
}

/** sessionLabel remembered per id, so a long list reads each holder's record once. */
export function sessionLabeler(store: ProjectStore): (id: string) => string {
  const seen = new Map<string, string>();
  return (id) => {
    let label = seen.get(id);
    if (label === undefined) seen.set(id, (label = sessionLabel(store, id)));
    return label;
  };
}
