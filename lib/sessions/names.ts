// Display names never shadow a selector (docs/selectors.md): a name that could
// be read as an id prefix or a tmux target (it has a `:`), or that is another
// session's name, branch, node or slug (its worktree and tmux name), would
// make `close <what ls shows>` hit the wrong session, so it is refused.
import { SpexError } from "../errors";
import { withLock } from "../lock";
import { type RecordChange, type RecordReading, updateRecord } from "../record";
import { type ProjectStore, projectLockPath } from "../store";
import { readAll } from "./rows";
import { slugsOf } from "./select";

const UUID_SHAPE = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";

/** True when `name` reads as the start of some session id, with or without its dashes. */
export function looksLikeIdPrefix(name: string): boolean {
  const lower = name.toLowerCase();
  if (lower.length < 2) return false;
  if (/^[0-9a-f]{2,32}$/.test(lower)) return true;
  if (lower.length > UUID_SHAPE.length) return false;
  return [...lower].every((c, i) => (UUID_SHAPE[i] === "-" ? c === "-" : /[0-9a-f]/.test(c)));
}

/** The longest display name, in characters: a name is carried by every list row, as its label. */
export const MAX_SESSION_NAME = 100;

/** Refuses a name no session may carry, whoever else exists. */
export function refuseInvalidName(name: string): void {
  if (name.length > MAX_SESSION_NAME && [...name.slice(0, 4 * MAX_SESSION_NAME)].length > MAX_SESSION_NAME) {
    throw new SpexError("name_invalid", `the name ${JSON.stringify(name.slice(0, 40) + "…")} is longer than ${MAX_SESSION_NAME} characters`, {
      hint: `pick a name of at most ${MAX_SESSION_NAME} characters (it is every list row's label)`,
      exitCode: 2,
      httpStatus: 400,
    });
  }
  if (name.includes(":")) {
    throw new SpexError("name_invalid", `the name ${JSON.stringify(name)} has a ":", which reads as a tmux target (session:window.pane) in selectors`, {
      hint: "pick a name without a colon",
      exitCode: 2,
      httpStatus: 400,
    });
  }
  if (name === "." || looksLikeIdPrefix(name)) {
    throw new SpexError("name_invalid", `the name ${JSON.stringify(name)} would read as ${name === "." ? "the current worktree" : "a session id prefix"} in selectors`, {
      hint: "pick a name with a letter outside a–f, or a dash where an id has none",
      exitCode: 2,
      httpStatus: 400,
    });
  }
}

/** Refuses a name another session of the project already answers to, as its name, branch, node or slug. */
export function refuseTakenName(readings: RecordReading[], name: string, self: string): void {
  for (const r of readings) {
    if (r.kind !== "ok" || r.id === self) continue;
    const rec = r.record;
    const as = rec.name === name ? "name" : rec.branch === name ? "branch" : rec.node === name ? "node" : slugsOf(rec).includes(name) ? "slug" : undefined;
    if (!as) continue;
    throw new SpexError("name_taken", `the name ${JSON.stringify(name)} is already the ${as === "slug" ? "worktree and tmux name" : as} of session ${r.id.slice(0, 8)}`, {
      hint: "pick another name; names stay unique so a selector always means one session",
      details: { session: r.id, as },
      httpStatus: 409,
    });
  }
}

/**
 * Check a name for session `self` against every other session. The caller
 * holds the project lock, so two sessions never take one name at once.
 */
export function refuseUnusableName(store: ProjectStore, name: string, self: string): void {
  if (name === "") return;
  refuseInvalidName(name);
  refuseTakenName(readAll(store), name, self);
}

export async function renameSession(store: ProjectStore, id: string, name: string): Promise<RecordChange | undefined> {
  const write = () =>
    updateRecord(store, id, (record) => (record.name === name ? undefined : { ...record, name }), {
      reason: "rename",
      allowRetired: true,
      purpose: `rename ${id}`,
    });
  if (name === "") return write();
  refuseInvalidName(name);
  // The project lock orders name checks with creates and other renames.
  return withLock(projectLockPath(store), () => {
    refuseTakenName(readAll(store), name, id);
    return write();
  }, { purpose: `rename ${id}` });
}
