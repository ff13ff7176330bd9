// The commit observer that notifies (DESIGN.md §15): it runs in the process
// whose write made the transition, after the record lock is released, so two
// processes that see the same transition never both fire: only the one whose
// write changed the record holds a RecordChange.
import { type CommitObserver, registerCommitObserver } from "../record";
import { announce } from "./dispatch";
import { eventOfChange } from "./events";
import { payloadOf } from "./payload";

/** The notifying observer (lib/comms/install.ts registers it, loading this module on the first commit). */
export const attentionObserver: CommitObserver = {
  async afterRelease(change) {
    const event = eventOfChange(change);
    if (!event) return;
    // The write is committed: nothing here may turn it into a failure.
    try {
      await announce(change.store, payloadOf(event, change.afterView, change.beforeView));
    } catch (e) {
      if (process.env.SPEX_DEBUG) process.stderr.write(`spex attention: ${(e as Error).message}\n`);
    }
  },
};

/** Register the notifying observer (idempotent). Every process that writes records does this at startup. */
export function installAttention(): void {
  registerCommitObserver(attentionObserver);
}
