// A close renames the session folder to a hidden sessions/.closed-<id>-<hex>
// (its commit point), revokes the sender, then deletes it. A close killed in
// between leaves that hidden folder: the next close finishes it, and doctor
// lists it. Such a folder beside a session folder of the same id is no close
// of spex's (one planted or hand-made in the store): it is left alone.
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { errnoCode } from "../errors";
import { lockHolder, withLock } from "../lock";
import { ownerAlive } from "../proc";
import { type ProjectStore, recordLockPath, sessionPaths } from "../store";
import { revokeSender } from "../comms/revoke";

const HIDDEN = /^\.closed-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-[0-9a-f]+$/;

export interface InterruptedClose {
  id: string;
  /** The hidden folder. */
  path: string;
  /**
   * `unfinished`: its close was killed, the next close finishes it; `running`: a live close
   * holds the record lock and finishes it itself; `not_ours`: a session folder of that id is
   * still there, so no close made it.
   */
  state: "unfinished" | "running" | "not_ours";
}

/** The hidden folders closes leave under sessions/, and what each is. */
export function interruptedCloses(store: ProjectStore): InterruptedClose[] {
  let names: string[];
  try {
    names = readdirSync(store.sessionsDir);
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return [];
    throw e;
  }
  const out: InterruptedClose[] = [];
  for (const name of names.sort()) {
    const id = HIDDEN.exec(name)?.[1];
    if (!id) continue;
    const path = join(store.sessionsDir, name);
    const holder = lockHolder(recordLockPath(store, id));
    const state = existsSync(sessionPaths(store, id).dir) ? "not_ours" : holder && ownerAlive(holder) ? "running" : "unfinished";
    out.push({ id, path, state });
  }
  return out;
}

/**
 * Finish the closes that were killed after their record went out of sight:
 * revoke the sender (under its record lock, as close does) and delete the
 * hidden folder. A close still running holds that lock and finishes itself,
 * so its folder is left to it. Returns the ids finished here.
 */
export async function finishInterruptedCloses(store: ProjectStore): Promise<string[]> {
  const finished: string[] = [];
  for (const left of interruptedCloses(store)) {
    if (left.state !== "unfinished") continue;
    await withLock(
      recordLockPath(store, left.id),
      () => {
        if (!existsSync(left.path)) return;
        // Asked again under the lock: a session of that id may have been made meanwhile.
        if (existsSync(sessionPaths(store, left.id).dir)) return;
        revokeSender(store, left.id);
        rmSync(left.path, { recursive: true, force: true });
        if (!finished.includes(left.id)) finished.push(left.id);
      },
      { purpose: `finish closing ${left.id}` },
    );
  }
  return finished;
}
