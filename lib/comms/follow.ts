// Manual watch relations: `watch` adds the `manual` source, `watch cancel`
// removes only that source (a parent keeps following its child). When no
// source remains, the notices still waiting for that watcher are dropped.
import type { ProjectStore } from "../store";
import { listPending, settle, syncInboxMarker, withQueueLock } from "./queue";
import { type SourceChange, addWatcher, removeWatcherSource } from "./watchers";

/** Drop notices about `about` still waiting in `watcher`'s queue. */
export async function dropNotices(store: ProjectStore, watcher: string, about: string, reason: string): Promise<number> {
  return withQueueLock(store, watcher, () => {
    let n = 0;
    for (const m of listPending(store, watcher)) {
      if (m.state === "queued" && m.from.kind === "watch" && m.about === about) {
        settle(store, m, "dropped", reason);
        n++;
      }
    }
    syncInboxMarker(store, watcher);
    return n;
  });
}

export async function watchSession(store: ProjectStore, watched: string, watcher: string): Promise<SourceChange> {
  return addWatcher(store, watched, watcher, "manual");
}

export async function cancelWatch(store: ProjectStore, watched: string, watcher: string): Promise<SourceChange & { droppedNotices: number }> {
  const change = await removeWatcherSource(store, watched, watcher, "manual");
  const droppedNotices = change.before.length > 0 && change.after.length === 0 ? await dropNotices(store, watcher, watched, "the watch was cancelled") : 0;
  return { ...change, droppedNotices };
}
