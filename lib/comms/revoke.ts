// Sender revocation (DESIGN.md §1.11): close publishes a marker while it still
// holds the session's record lock, so a stale process of a closed session can
// neither append to a timeline nor have its queued, unhanded messages typed.
import { existsSync } from "node:fs";
import type { ProjectStore } from "../store";
import { touchDurably } from "./files";
import { revokedMarker } from "./paths";

/** Called by close with the session's record lock held. Idempotent. */
export function revokeSender(store: ProjectStore, id: string): void {
  touchDurably(revokedMarker(store, id), JSON.stringify({ revokedAt: new Date().toISOString() }) + "\n");
}

export function isRevoked(store: ProjectStore, id: string): boolean {
  return existsSync(revokedMarker(store, id));
}
