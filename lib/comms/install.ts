// Imported once by the CLI entry (cmd/run-verb.ts) and by `spex serve` so every
// process that writes records also appends their timeline events and
// notifies watchers. The comms code loads on the first commit, not at start:
// most verbs write no record, and the writer awaits its observers either way.
import { type CommitObserver, registerCommitObserver } from "../record";

let comms: Promise<CommitObserver> | undefined;
const load = () => (comms ??= import(/* webpackMode: "eager" */ "./notify").then((m) => m.commsObserver));

registerCommitObserver({
  async underLock(change) {
    await (await load()).underLock?.(change);
  },
  async afterRelease(change) {
    await (await load()).afterRelease?.(change);
  },
});
