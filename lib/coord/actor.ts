// Who a coordination verb acts for. A session: --session SEL, else
// SPEX_SESSION_ID, else the worktree the caller is in. A claim or a lease in
// the name of a session that does not exist would never be cleaned up, so an
// unknown session is refused. A person: --as NAME, else, where no session is
// in play (the main checkout, a plain shell), the user running spex. A person
// is stored as `person:NAME`, which no session id can be, and is never
// "gone" the way a closed session is: a person's claim stands until released.
import { userInfo } from "node:os";
import { SpexError } from "../errors";
import { labelOf, shortId } from "../naming";
import { readSession } from "../record";
import { matchSelector, readAll, resolveSelector, sessionAt } from "../sessions";
import { type ProjectStore, sessionIdFromEnv } from "../store";

export const PERSON_PREFIX = "person:";

/** Whether a stored owner or holder is a person rather than a session. */
export function isPerson(actor: string): boolean {
  return actor.startsWith(PERSON_PREFIX);
}

const PERSON_NAME = /^[A-Za-z0-9_][A-Za-z0-9._@-]{0,63}$/;

/** The stored form of a person; a name that would not read back plainly is refused. */
export function personActor(name: string): string {
  if (!PERSON_NAME.test(name)) {
    throw new SpexError("usage", `${JSON.stringify(name)} is not a name a person can act under`, {
      hint: "use --as NAME with letters, digits and . _ @ - (at most 64), such as --as alice",
      exitCode: 2,
      httpStatus: 400,
    });
  }
  return `${PERSON_PREFIX}${name}`;
}

/** The user running spex, as `$USER` (or `$LOGNAME`, or the system) names them. */
export function defaultPersonName(env: NodeJS.ProcessEnv = process.env): string {
  const named = env.USER || env.LOGNAME;
  if (named) return named;
  try {
    return userInfo().username;
  } catch {
    return "";
  }
}

export interface ActorChoice {
  /** --session SEL. */
  session?: string;
  /** --as NAME. */
  as?: string;
}

function refuseBoth(choice: ActorChoice): void {
  if (choice.as !== undefined && choice.session !== undefined) {
    throw new SpexError("usage", "--as and --session name two different actors", { hint: "act as a person (--as) or for a session (--session), not both", exitCode: 2 });
  }
}

/**
 * The actor of a verb that changes something (claim, finish, release,
 * reserve): a session when one is named or in play, else a person.
 */
export function actingActor(store: ProjectStore, choice: ActorChoice, cwd = process.cwd()): string {
  refuseBoth(choice);
  if (choice.as !== undefined) return personActor(choice.as);
  if (choice.session !== undefined || sessionIdFromEnv()) return actingSession(store, choice.session, cwd);
  const here = sessionAt(readAll(store), cwd);
  return here ? here.id : personActor(defaultPersonName());
}

/** The actor a reader marks as "you" (`mine`): a session in play, else the person; nobody for a stale SPEX_SESSION_ID. */
export function optionalActor(store: ProjectStore, choice: ActorChoice, cwd = process.cwd()): string | undefined {
  refuseBoth(choice);
  if (choice.as !== undefined) return personActor(choice.as);
  if (choice.session !== undefined || sessionIdFromEnv()) return optionalActingSession(store, choice.session, cwd);
  const here = sessionAt(readAll(store), cwd);
  if (here) return here.id;
  const name = defaultPersonName();
  return PERSON_NAME.test(name) ? `${PERSON_PREFIX}${name}` : undefined;
}

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

/** What people see for an actor: a session's label (the short id when its record is unreadable), or a person's name. */
export function sessionLabel(store: ProjectStore, id: string): string {
  if (!id) return "";
  if (isPerson(id)) return `${id.slice(PERSON_PREFIX.length)} (person)`;
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
