// Session ids become paths (sessions/<id>/, locks/<id>.lock), so an id is
// checked to be a UUID wherever it enters: the environment, argv, hook
// payloads, URLs, file names (DESIGN.md §13). Anything else names no session.
import { SpexError } from "../errors";

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A canonical lower-case UUID, the only shape a session id has. */
export function isSessionId(value: string): boolean {
  return SESSION_ID.test(value);
}

/** The id itself, or `session_not_found` naming where the bad value came from. */
export function requireSessionId(value: string, source = "the session id"): string {
  if (isSessionId(value)) return value;
  throw new SpexError("session_not_found", `${source} ${JSON.stringify(value.slice(0, 80))} is not a session id`, {
    hint: "a session id is a UUID as `spex session ls` shows it",
    httpStatus: 404,
  });
}

/** SPEX_SESSION_ID when set; a value that is not a UUID is refused, never turned into a path. */
export function sessionIdFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env.SPEX_SESSION_ID;
  return value ? requireSessionId(value, "SPEX_SESSION_ID") : undefined;
}
