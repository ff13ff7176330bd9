// Imported once by the CLI entry (cmd/run-verb.ts) and by `spex serve` so every
// process that writes records also appends their timeline events, notifies
// watchers and sends the notifications a person configured (lib/attention).
// Their code loads on the first commit, not at start: most verbs write no
// record, and the writer awaits its observers either way.
import { type CommitObserver, registerCommitObserver } from "../record";

/** An observer whose module is imported when the first commit reaches it. */
function onFirstCommit(load: () => Promise<CommitObserver>): CommitObserver {
  let loaded: Promise<CommitObserver> | undefined;
  const observer = () => (loaded ??= load());
  return {
    async underLock(change) {
      await (await observer()).underLock?.(change);
    },
    async afterRelease(change) {
      await (await observer()).afterRelease?.(change);
    },
  };
}

registerCommitObserver(onFirstCommit(() => import(/* webpackMode: "eager" */ "./notify").then((m) => m.commsObserver)));
registerCommitObserver(onFirstCommit(() => import(/* webpackMode: "eager" */ "../attention/observer").then((m) => m.attentionObserver)));
