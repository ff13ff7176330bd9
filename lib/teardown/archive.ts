// archive: file the row away, capturing the last screen first. A live pane
// keeps running unless the caller asks for a stop too.
import { writeFileSync, renameSync } from "node:fs";
import { type RecordChange, type SessionRecord, readSession, refuseUnusable, updateRecord } from "../record";
import { type ProjectStore, sessionPaths } from "../store";
import { capturePane } from "../tmux";
import { type RuntimeStop, assertNotRelaunched, endTmuxSession, sessionPaneTarget, stopRecordedLeaf } from "./runtime";
import { refuseCorrupt, stoppedRecord } from "./stop";
import { timed } from "./timing";

/** Lines of scrollback kept above the visible screen. */
export const LAST_SCREEN_HISTORY = 200;

export interface ArchiveResult {
  id: string;
  archived: true;
  /** Bytes of the captured screen, or null when no pane was there to capture. */
  screenBytes: number | null;
  stopped: boolean;
  runtime: RuntimeStop | null;
  changed: boolean;
}

/** Capture the pane into last-screen.txt (atomic replace); null when there is no pane. */
export function captureLastScreen(store: ProjectStore, id: string, record: SessionRecord): number | null {
  if (!record.tmux_session) return null;
  const screen = timed("tmux", () => capturePane(record.tmux_socket, sessionPaneTarget(record.tmux_session), LAST_SCREEN_HISTORY));
  if (screen === undefined) return null;
  const file = sessionPaths(store, id).lastScreen;
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, screen);
  renameSync(tmp, file);
  return Buffer.byteLength(screen);
}

export interface ArchiveOptions {
  /** Stop the agent and its tmux session too (otherwise a live pane keeps running). */
  stop?: boolean;
  /** Archive only if an after-turn archive request still stands under the lock. */
  onlyIfRequested?: boolean;
}

export async function archiveSession(store: ProjectStore, id: string, opts: ArchiveOptions = {}): Promise<ArchiveResult & { change?: RecordChange }> {
  if (opts.stop) refuseCorrupt(store, id, "archive --stop");
  const reading = readSession(store, id);
  refuseUnusable(reading);
  if (opts.onlyIfRequested && reading.record.after_turn !== "archive") {
    return { id, archived: true, screenBytes: null, stopped: false, runtime: null, changed: false };
  }
  // The screen is captured before anything is stopped: it is what the row is filed away with.
  const screenBytes = captureLastScreen(store, id, reading.record);
  const leafStop = opts.stop ? stopRecordedLeaf(store, id, reading.record) : undefined;
  let runtime: RuntimeStop | null = null;
  const change = await updateRecord(
    store,
    id,
    (record, ctx) => {
      let next: SessionRecord;
      if (leafStop) {
        assertNotRelaunched(store, id, reading.record, record);
        runtime = { leaf: leafStop.outcome, pid: leafStop.leaf.pid || null, tmux: endTmuxSession(id, record), others: leafStop.others };
        next = stoppedRecord(record, ctx.pending);
      } else {
        next = { ...record, after_turn: record.after_turn === "archive" ? "" : record.after_turn };
      }
      next.archived = true;
      return JSON.stringify(next) === JSON.stringify(record) ? undefined : next;
    },
    { reason: "archive", purpose: `archive ${id}` },
  );
  return { id, archived: true, screenBytes, stopped: !!opts.stop, runtime, changed: change !== undefined, change };
}
