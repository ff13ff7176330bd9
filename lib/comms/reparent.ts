// `spex session reparent` (DESIGN.md §7): under the child's record lock change
// its parent pointer and only the `parent` source of its watchers; then, with
// the lock released, hand the new parent the child's current state. Detaching
// removes the old relation and its pending notice, and notifies nobody.
import { SpexError } from "../errors";
import { shortId } from "../naming";
import { publicRecord, readSession, refuseUnusable, updateRecord } from "../record";
import type { ProjectStore } from "../store";
import { noticeTo } from "./notify";
import { dropNotices } from "./follow";
import { editWatcherUnderLock } from "./watchers";

export interface ReparentResult {
  id: string;
  from: string;
  to: string;
  changed: boolean;
  notified: boolean;
}

function refuseCycle(store: ProjectStore, child: string, newParent: string): void {
  if (newParent === child) {
    throw new SpexError("reparent_cycle", "a session cannot be its own parent", { hint: "choose another parent", httpStatus: 400 });
  }
  const seen = new Set<string>();
  for (let at = newParent; at && !seen.has(at); ) {
    seen.add(at);
    if (at === child) {
      throw new SpexError("reparent_cycle", `${shortId(newParent, 8)} descends from ${shortId(child, 8)}; the move would make a cycle`, {
        hint: "move the descendant first, or detach it",
        httpStatus: 400,
      });
    }
    const r = readSession(store, at);
    at = r.kind === "ok" ? r.record.parent : "";
  }
}

/** Move `child` under `newParent`, or make it top-level when newParent is null. */
export async function reparentSession(store: ProjectStore, child: string, newParent: string | null): Promise<ReparentResult> {
  if (newParent) {
    refuseCycle(store, child, newParent);
    refuseUnusable(readSession(store, newParent), { allowRetired: true });
  }
  const to = newParent ?? "";
  let from = "";
  let oldReleased = false;
  const change = await updateRecord(
    store,
    child,
    (r) => {
      from = r.parent;
      // Legacy watcher rows resolve against the parent as it stands before the move.
      if (from && from !== to) oldReleased = editWatcherUnderLock(store, child, from, "parent", "remove", from).after.length === 0;
      if (to) editWatcherUnderLock(store, child, to, "parent", "add", from);
      return from === to ? undefined : { ...r, parent: to };
    },
    { reason: "reparent", allowRetired: true, purpose: `reparent ${child}` },
  );
  if (from && from !== to && oldReleased) await dropNotices(store, from, child, "the watch relation was removed (reparent)");
  let notified = false;
  if (to && from !== to) {
    const reading = readSession(store, child);
    if (reading.kind === "ok") {
      await noticeTo(store, to, publicRecord(reading.record, reading.pending));
      notified = true;
    }
  }
  return { id: child, from, to, changed: change !== undefined, notified };
}
