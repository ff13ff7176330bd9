// The launch queue's marker (lib/create/launch-queue.ts keeps it in step under
// the project lock): present while a session may be waiting for a slot, so an
// agent's hook and `serve` can tell with one stat whether a drain is worth
// starting, before reading a single record.
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileNoFollow } from "../nofollow";
import type { ProjectStore } from "../store";
import { withoutFaults } from "../faults";
import { spawnSelfDetached } from "./spawn-self";

export function queueMarker(store: ProjectStore): string {
  return join(store.dir, "launch-queue.pending");
}

export function queueMayWait(store: ProjectStore): boolean {
  return existsSync(queueMarker(store));
}

/**
 * Under the project lock: present exactly while `waiting` > 0, counting the
 * queued sessions and the queue's claims not yet settled (a claimer killed
 * before its launch ran leaves one, and a later reader must still look).
 */
export function syncQueueMarker(store: ProjectStore, waiting: number): void {
  if (waiting > 0) {
    if (!queueMayWait(store)) writeFileNoFollow(store.dir, "launch-queue.pending", "", { durable: true });
  } else rmSync(queueMarker(store), { force: true });
}

/** A settled claim that went back to the queue: make sure the next hook or `serve` tick looks (no lock needed: only ever added here). */
export function keepQueueMarker(store: ProjectStore): void {
  if (!queueMayWait(store)) writeFileNoFollow(store.dir, "launch-queue.pending", "", { durable: true });
}

/**
 * For paths that must not wait on a launch (an agent's hook): hand the drain
 * to a detached `spex internal launch-queue` when something may be waiting.
 */
export async function scheduleLaunchDrain(store: ProjectStore): Promise<boolean> {
  if (!queueMayWait(store)) return false;
  const env = withoutFaults({ ...process.env, SPEX_HOME: store.home, SPEX_PROJECT_ROOT: store.root });
  return spawnSelfDetached(["internal", "launch-queue"], env);
}
