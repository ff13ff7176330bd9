// Where comms keeps its files (DESIGN.md §3): the timeline and watchers live in
// the session's folder; the delivery queue, its lock and the revocation
// markers live under the project's queue/ folder so they outlive a closed target.
import { join } from "node:path";
import { type ProjectStore, sessionPaths } from "../store";

export interface QueuePaths {
  dir: string;
  lock: string;
  state: string;
  pending: string;
  done: string;
}

export function queuePaths(store: ProjectStore, targetId: string): QueuePaths {
  const dir = join(store.queueDir, targetId);
  return {
    dir,
    lock: join(dir, "queue.lock"),
    state: join(dir, "state.json"),
    pending: join(dir, "pending"),
    done: join(dir, "done"),
  };
}

export function revokedMarker(store: ProjectStore, senderId: string): string {
  return join(store.queueDir, "revoked", senderId);
}

/** Exists exactly while a message to the session is queued or being handed over (the hook's fast-path check). */
export function inboxMarker(store: ProjectStore, id: string): string {
  return join(sessionPaths(store, id).dir, "inbox.pending");
}

export function cursorFile(store: ProjectStore, targetId: string, cursorKey: string): string {
  const safe = cursorKey.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 120);
  return join(sessionPaths(store, targetId).dir, "cursors", safe || "_");
}

/** Zero-padded so a plain directory listing sorts in queue order. */
export function messageFileName(n: number): string {
  return `${String(n).padStart(10, "0")}.json`;
}
