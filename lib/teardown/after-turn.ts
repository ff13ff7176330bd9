// After-turn requests (DESIGN.md §9): a session asks to be archived or stopped
// once its current turn ends. `done --then` stores the request in the record;
// the Stop hook calls runAfterTurn after recording idle, and the work runs in
// a detached process so the hook returns and the agent can end its turn.
//
// The Stop hook calls runAfterTurn on every turn's end and almost always finds
// nothing pending: spawning, archiving and stopping are loaded only for a
// request (they bring the launch machinery and git).
import { spawnSelfDetached } from "../launch/spawn-self";
import { type AfterTurn, type RecordChange, readSession, updateRecord } from "../record";
import type { ProjectStore } from "../store";

export async function requestAfterTurn(store: ProjectStore, id: string, then: AfterTurn): Promise<RecordChange | undefined> {
  return updateRecord(store, id, (r) => (r.after_turn === then ? undefined : { ...r, after_turn: then }), {
    reason: "after-turn",
    purpose: `after-turn ${id}`,
  });
}

export type AfterTurnOutcome = "none" | "spawned" | "archived" | "stopped";

/**
 * Carry out a pending after-turn request. Nothing pending answers from one
 * read and spawns nothing (the hook path). With `detach` the work is handed to
 * `spex internal after-turn ID` in its own session, out of the reach of the
 * pane's hangup when its tmux session ends.
 */
export async function runAfterTurn(store: ProjectStore, id: string, opts: { detach?: boolean } = {}): Promise<AfterTurnOutcome> {
  const reading = readSession(store, id);
  if (reading.kind !== "ok" || reading.record.after_turn === "") return "none";
  if (opts.detach ?? true) {
    const spawned = await spawnSelfDetached(["internal", "after-turn", id], { ...process.env, SPEX_PROJECT_ROOT: store.root, SPEX_HOME: store.home });
    // A failed spawn must surface (the hook logs it), not vanish.
    if (!spawned) throw new Error(`could not start spex internal after-turn ${id}`);
    return "spawned";
  }
  // The verbs read the record again: a --cancel that landed meanwhile wins.
  if (reading.record.after_turn === "archive") {
    const { archiveSession } = await import(/* webpackMode: "eager" */ "./archive");
    const r = await archiveSession(store, id, { onlyIfRequested: true });
    return r.changed ? "archived" : "none";
  }
  const { stopSession } = await import(/* webpackMode: "eager" */ "./stop");
  const r = await stopSession(store, id, { onlyIfRequested: "stop" });
  return r.skipped ? "none" : "stopped";
}
