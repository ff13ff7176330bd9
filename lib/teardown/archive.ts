// archive: file the row away, capturing the last screen first. A live pane
// keeps running unless the caller asks for a stop too.
import { SpexError } from "../errors";
import { type RecordChange, type SessionRecord, readSession, refuseUnusable, updateRecord } from "../record";
import type { ProjectStore } from "../store";
import { saveLastScreen } from "../sessions/screen";
import { type RuntimeStop, assertNotRelaunched, endTmuxSession, stopRecordedLeaf } from "./runtime";
import type { EndOptions } from "./leaf";
import { refuseCorrupt, stoppedRecord } from "./stop";
import { timed } from "./timing";
import { faultPoint } from "../faults";
import { type FreedSlot, drainAfterFreeing } from "../create/launch-queue";

export interface ArchiveResult extends FreedSlot {
  id: string;
  archived: true;
  /** Bytes of the captured screen, or null when no pane was there to capture. */
  screenBytes: number | null;
  stopped: boolean;
  runtime: RuntimeStop | null;
  changed: boolean;
}

export interface ArchiveOptions {
  /** Stop the agent and its tmux session too (otherwise a live pane keeps running). */
  stop?: boolean;
  /** Archive only if an after-turn archive request still stands under the lock. */
  onlyIfRequested?: boolean;
  /** Told when the agent has not ended after a moment (the command prints it on a terminal). */
  onWait?: EndOptions["onWait"];
}

export async function archiveSession(store: ProjectStore, id: string, opts: ArchiveOptions = {}): Promise<ArchiveResult & { change?: RecordChange }> {
  if (opts.stop) refuseCorrupt(store, id, "archive --stop");
  const reading = readSession(store, id);
  refuseUnusable(reading);
  if (opts.onlyIfRequested && reading.record.after_turn !== "archive") {
    return { id, archived: true, screenBytes: null, stopped: false, runtime: null, changed: false, launchedFromQueue: [], queueFailures: [] };
  }
  // The screen is captured before anything is stopped: it is what the row is filed away with.
  const screenBytes = timed("tmux", () => saveLastScreen(store, id, reading.record));
  const leafStop = opts.stop ? stopRecordedLeaf(store, id, reading.record, opts.onWait) : undefined;
  faultPoint("archive-agent-stopped");
  let runtime: RuntimeStop | null = null;
  const change = await updateRecord(
    store,
    id,
    (record, ctx) => {
      let next: SessionRecord;
      if (leafStop) {
        assertNotRelaunched(store, id, reading.record, record);
        runtime = { leaf: leafStop.outcome, pid: leafStop.leaf.pid || null, tmux: endTmuxSession(id, record), others: leafStop.others };
        faultPoint("archive-tmux-ended");
        next = stoppedRecord(record, ctx.pending);
      } else {
        next = { ...record, after_turn: record.after_turn === "archive" ? "" : record.after_turn };
      }
      next.archived = true;
      // Filed away, it leaves the launch queue: an archived session is never launched on its own.
      if (next.status === "queued") next.status = "idle";
      return JSON.stringify(next) === JSON.stringify(record) ? undefined : next;
    },
    { reason: "archive", purpose: `archive ${id}` },
  );
  // Only a stop frees a slot: an archived pane that keeps running still holds its own.
  const freed = opts.stop ? await drainAfterFreeing(store) : { launchedFromQueue: [], queueFailures: [] };
  return { id, archived: true, screenBytes, stopped: !!opts.stop, runtime, changed: change !== undefined, change, ...freed };
}

export interface RestoreArchivedResult {
  id: string;
  archived: false;
  /** False when the session was not archived. */
  changed: boolean;
}

/**
 * Un-archive: the row is listed again; nothing is launched or signalled (a
 * stopped session stays stopped until `resume`). A retired row may come back
 * too, so it can be seen and closed.
 */
export async function restoreArchived(store: ProjectStore, id: string): Promise<RestoreArchivedResult & { change?: RecordChange }> {
  const change = await updateRecord(
    store,
    id,
    (record, ctx) => {
      // A launch under way un-archives the row itself, or puts the archived original back if it fails.
      if (ctx.pending) {
        throw new SpexError("launch_in_progress", `session ${id.slice(0, 8)} is starting; a launch un-archives it when it succeeds`, {
          hint: "wait for the launch to finish, then check `spex session ls`",
        });
      }
      return record.archived ? { ...record, archived: false } : undefined;
    },
    { allowRetired: true, reason: "unarchive", purpose: `unarchive ${id}` },
  );
  return { id, archived: false, changed: change !== undefined, change };
}
