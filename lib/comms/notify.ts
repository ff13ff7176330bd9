// State events and watch notices (DESIGN.md §7). A commit observer appends the
// state event to the session's timeline while the record lock is held, then,
// after the lock is released, snapshots watchers.json and queues one notice
// per watcher id (a watcher with both sources still gets one), and starts a
// drain when the session itself came to rest with messages waiting.
import { labelOf, previewOf, shortId } from "../naming";
import { type CommitObserver, type RecordChange, type SessionRecord, readSession } from "../record";
import type { ProjectStore } from "../store";
import { drainDeliveries } from "./deliver";
import { runsTypedText } from "./envelope";
import { enqueue } from "./queue";
import { type StateEvent, appendStateEvent } from "./timeline";
import { readWatchers } from "./watchers";

/** The state event a commit produced, or undefined when nothing a reader sees changed. */
export function stateEventOf(change: Pick<RecordChange, "beforeView" | "afterView">): StateEvent | undefined {
  const b = change.beforeView;
  const a = change.afterView;
  const same = b.status === a.status && b.proposal === a.proposal && b.note === a.note && b.stopped === a.stopped && b.archived === a.archived;
  if (same) return undefined;
  return { kind: "state", status: a.status, prev: b.status, proposal: a.proposal, note: a.note, stopped: a.stopped, archived: a.archived };
}

// Watchers hear about turns that ended and sessions that went away, not every turn start.
const NOTICE_STATUSES = new Set(["idle", "awaiting", "parked", "asking", "error"]);

export function worthNotice(change: Pick<RecordChange, "beforeView" | "afterView">): boolean {
  const b = change.beforeView;
  const a = change.afterView;
  if (a.stopped && !b.stopped) return true;
  if (a.archived && !b.archived) return true;
  if (a.stopped || a.archived) return false;
  if (!NOTICE_STATUSES.has(a.status)) return false;
  return a.status !== b.status || a.proposal !== b.proposal || a.note !== b.note;
}

/** The one line (plus note) a watcher reads about a session's current state. */
export function noticeText(view: SessionRecord): string {
  const short = shortId(view.session_id, 8);
  let what: string = view.status;
  if (view.archived) what = "archived";
  else if (view.stopped) what = "stopped";
  else if (view.proposal) what = `${view.status}, proposing ${view.proposal}`;
  const note = view.note ? `: ${previewOf(view.note, 300)}` : "";
  return `[spex watch] session ${previewOf(labelOf(view), 80)} (${short}) is now ${what}${note} (details: spex session show ${short})`;
}

/** Queue (or refresh) a notice about `about` for one watcher, then try to hand it over. */
export async function noticeTo(store: ProjectStore, watcher: string, view: SessionRecord): Promise<void> {
  const watcherReading = readSession(store, watcher);
  // A shell would run the notice's text (the watched session's label and note): nothing is queued for it.
  if (watcherReading.kind !== "ok" || runsTypedText(watcherReading.record.harness)) return;
  const about = view.session_id;
  await enqueue(
    store,
    watcher,
    { from: { kind: "watch", id: about, label: labelOf(view) }, text: noticeText(view), keys: [], about },
    () => 0,
    { replaces: (m) => m.from.kind === "watch" && m.about === about },
  );
  await drainDeliveries(store, watcher);
}

type Transition = Pick<RecordChange, "beforeView" | "afterView">;

/**
 * A change whose writer was killed before its timeline event (appendStateEvent
 * appends it as `recovered`) never sent its notice either: the change after it
 * sends it first, as it would have gone out then.
 */
const recoveredBefore = new WeakMap<RecordChange, Transition>();

async function noticeWatchers(store: ProjectStore, id: string, change: Transition): Promise<void> {
  if (!worthNotice(change)) return;
  const watchers = readWatchers(store, id, change.afterView.parent);
  for (const w of new Set(watchers.map((e) => e.watcher))) {
    try {
      await noticeTo(store, w, change.afterView);
    } catch (e) {
      debug(`notice to ${w} about ${id} failed: ${(e as Error).message}`);
    }
  }
}

async function afterCommit(change: RecordChange): Promise<void> {
  const id = change.after.session_id;
  const recovered = recoveredBefore.get(change);
  if (recovered) await noticeWatchers(change.store, id, recovered);
  await noticeWatchers(change.store, id, change);
  const v = change.afterView;
  if ((v.status === "idle" || v.status === "awaiting") && !v.stopped && !v.archived) await drainDeliveries(change.store, id);
}

function debug(line: string): void {
  if (process.env.SPEX_DEBUG) process.stderr.write(`spex comms: ${line}\n`);
}

/** The comms commit observer (lib/comms/install.ts registers it, loading this module on the first commit). */
export const commsObserver: CommitObserver = {
  underLock(change) {
    const event = stateEventOf(change);
    if (!event) return;
    const { lostFrom } = appendStateEvent(change.store, change.after.session_id, change.beforeView, event);
    if (lostFrom) recoveredBefore.set(change, { beforeView: { ...change.beforeView, ...lostFrom }, afterView: change.beforeView });
  },
  async afterRelease(change) {
    if (!stateEventOf(change)) return;
    // The record is committed: a failed notice must not turn the write into a failure.
    try {
      await afterCommit(change);
    } catch (e) {
      debug(`after commit of ${change.after.session_id}: ${(e as Error).message}`);
    }
  },
};
