// SEAM(comms): closing revokes the session as a sender (DESIGN.md §1.11), so a
// stale process of it cannot append to a timeline after close returns. Called
// by close while the record lock is still held. lib/comms does not export
// revokeSender yet; replace the body with `revokeSender(store, id)` when it does.
import type { ProjectStore } from "../store";

export function revokeClosedSender(_store: ProjectStore, _id: string): boolean {
  return false;
}
