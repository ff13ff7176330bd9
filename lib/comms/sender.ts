// Who is sending (or waiting): `--from NAME` names a session of this project
// (agent-attributed, its lock is taken) or, failing that, a free-form name of a
// caller with no session here; without it the caller's SPEX_SESSION_ID counts,
// else the message comes from the user at the terminal.
import { readdirSync } from "node:fs";
import { dirname } from "node:path";
import { SpexError, errnoCode } from "../errors";
import { shortId } from "../naming";
import { readSession } from "../record";
import { matchSelector, readAll } from "../sessions";
import { type ProjectStore, isSessionId, sessionIdFromEnv } from "../store";
import { revokedMarker } from "./paths";
import type { SenderInput } from "./send";

function revokedIds(store: ProjectStore): string[] {
  try {
    return readdirSync(dirname(revokedMarker(store, "x")));
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return [];
    throw e;
  }
}

export function resolveSender(store: ProjectStore, from: string | undefined, env = process.env): SenderInput {
  if (from === undefined) {
    const own = sessionIdFromEnv(env);
    if (!own) return { kind: "user" };
    // A session of another project has no lock here: it is named, not attributed.
    const present = readSession(store, own).kind !== "absent" || revokedIds(store).includes(own);
    return present ? { kind: "session", id: own } : { kind: "name", name: `session ${shortId(own, 8)}` };
  }
  const name = from.trim();
  if (!name) throw new SpexError("usage", "--from needs a name", { exitCode: 2 });
  try {
    return { kind: "session", id: matchSelector(readAll(store), name).id };
  } catch (e) {
    if (!(e instanceof SpexError) || e.code !== "session_not_found") throw e;
  }
  // A closed session stays refused under its id, never reborn as a free-form name.
  const revoked = revokedIds(store).filter((id) => id === name || (name.length >= 8 && id.startsWith(name)));
  if (revoked.length === 1) return { kind: "session", id: revoked[0]! };
  if (isSessionId(name.toLowerCase())) {
    throw new SpexError("sender_unknown", `no session ${name} exists in this project`, {
      hint: "name a live session, or a plain name for a caller with no session here",
      httpStatus: 404,
    });
  }
  return { kind: "name", name };
}
