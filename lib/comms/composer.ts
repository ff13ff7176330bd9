// A delivery interrupted between paste and Enter (its process killed, the
// echo never seen, Enter refused) may leave its text in the agent's composer.
// The next text typed there would join it and go in as one submission, so
// the queue notes the suspicion and types nothing more until the composer is
// proven clear of that text (issue 21 item 6). Keys still go through: they
// answer dialogs, and are how a composer is cleared from outside.
import type { ProjectStore } from "../store";
import { type QueuedMessage, readQueueState, writeQueueState } from "./queue";
import { composerCleared } from "./screen";
import { eventsAfter } from "./timeline";

/** Under the queue lock: the composer may hold `m`'s text, unsent. */
export function suspectComposer(store: ProjectStore, target: string, m: QueuedMessage): void {
  const q = readQueueState(store, target);
  writeQueueState(store, target, { ...q, composer: { messageId: m.id, claimSeq: m.claim?.seq ?? 0, ...(m.claim?.echo ? { echo: m.claim.echo } : {}) } });
}

/**
 * Under the queue lock, before text is typed: why the composer may still hold
 * a dead delivery's text, or "" once it is proven clear of it (issue 21 item
 * 6). Proof is a turn the agent started after that claim (whatever sat in the
 * composer was submitted with it) or a composer area that shows the text no
 * more often than before its paste (cleared by hand, or it never landed).
 */
export function composerLeftover(store: ProjectStore, target: string, screen: string): string {
  const q = readQueueState(store, target);
  const suspect = q.composer;
  if (!suspect) return "";
  const turned = eventsAfter(store, target, suspect.claimSeq).some((e) => e.kind === "state" && e.status === "active");
  if (turned || (suspect.echo && composerCleared(screen, suspect.echo))) {
    const { composer: _cleared, ...rest } = q;
    writeQueueState(store, target, rest);
    return "";
  }
  const short = target.slice(0, 8);
  return `the composer may still hold the unsent text of ${suspect.messageId} (its delivery was interrupted between paste and Enter), and typing now would join the two; clear it (spex session attach ${short}) or submit it, then \`spex session deliver ${short}\` goes on`;
}
