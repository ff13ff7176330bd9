// stop and interrupt. Stop signals the leaf first (guarded, outside the lock,
// see runtime.ts), then under the record lock ends the tmux session and marks
// the record stopped.
import { rmSync } from "node:fs";
import { SpexError } from "../errors";
import { harnessAdapter } from "../harness";
import { type RecordChange, type SessionRecord, publicRecord, readSession, refuseUnusable, updateRecord } from "../record";
import { type ProjectStore, sessionPaths } from "../store";
import { sendKeys } from "../tmux";
import { declareState } from "../sessions/state";
import { saveLastScreen } from "../sessions/screen";
import { corruptRefusal } from "./residues";
import type { EndOptions } from "./leaf";
import { type RuntimeStop, type TmuxOutcome, assertNotRelaunched, endTmuxSession, hasTmuxSession, sessionPaneTarget, stopRecordedLeaf } from "./runtime";
import { timed } from "./timing";
import { type FreedSlot, drainAfterFreeing } from "../create/launch-queue";

export interface StopResult extends RuntimeStop, FreedSlot {
  id: string;
  /** The record changed (false when it was already stopped with nothing pending). */
  changed: boolean;
}

/** Refuse a corrupt record loudly, with its residues, before anything is signalled. */
export function refuseCorrupt(store: ProjectStore, id: string, verb: string): void {
  const reading = readSession(store, id);
  if (reading.kind === "corrupt") throw corruptRefusal(store, reading, verb);
}

/**
 * The stopped form of a record: the readiness fence (if a launch was caught
 * mid-way) falls back to its frozen original, and a pending after-turn
 * request is moot.
 */
export function stoppedRecord(record: SessionRecord, pending: Parameters<typeof publicRecord>[1], by: "spex" | "exited" = "spex"): SessionRecord {
  const base = publicRecord(record, pending);
  // The leaf is gone: forget its pid, so a later process wearing that number is never taken for it.
  // A stopped session also leaves the launch queue: it waits for a resume, not for a slot.
  const status = base.status === "queued" ? "idle" : base.status;
  // Ended by spex (stop, close, archive --stop): a reader says `killed`, and `resume --all` leaves it be (lib/survive).
  // Clearing what an agent that died on its own left (`exited`) keeps that said without its pid, so a relaunch cut
  // short after the clearing leaves a session `resume --all` still brings back.
  const stopped: SessionRecord = { ...base, status, launch_readiness_pending: "", stopped: true, stopped_by: by, after_turn: "", agent_pid: "", agent_start: "" };
  // Its port block goes back to the pool (lib/workspace).
  delete stopped.ports;
  return stopped;
}

function sameRecord(a: SessionRecord, b: SessionRecord): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export interface StopOptions {
  /** Stop only if this after-turn request stands (a --cancel that landed first wins). */
  onlyIfRequested?: "stop";
  /** Told when the agent has not ended after a moment (the command prints it on a terminal). */
  onWait?: EndOptions["onWait"];
  /** Hand the freed slot to the launch queue (default true; a resume takes it back itself). */
  drain?: boolean;
  /**
   * Only clearing what an agent that is already gone left behind (its dead
   * pane, a daemon it started) before a relaunch: nobody is ending the agent,
   * so the record does not say `killed`.
   */
  leftovers?: boolean;
}

export async function stopSession(store: ProjectStore, id: string, opts: StopOptions = {}): Promise<StopResult & { skipped: boolean; change?: RecordChange }> {
  refuseCorrupt(store, id, "stop");
  const reading = readSession(store, id);
  // A retired record may still have a live leaf in a deleted folder: stopping it is teardown, not revival.
  refuseUnusable(reading, { allowRetired: true });
  const skip = (r: SessionRecord) => opts.onlyIfRequested !== undefined && r.after_turn !== opts.onlyIfRequested;
  if (skip(reading.record)) return { id, leaf: "none", pid: null, tmux: "none", others: [], changed: false, skipped: true, launchedFromQueue: [], queueFailures: [] };
  // The screen as the agent left it, before anything is signalled: `show` and `read` keep it.
  // Best effort: a link planted where it goes is not written through, and does not stop the stop.
  try {
    timed("tmux", () => saveLastScreen(store, id, reading.record));
  } catch (e) {
    if (!(e instanceof SpexError && e.code === "unsafe_path")) throw e;
  }
  const { leaf, outcome, others } = stopRecordedLeaf(store, id, reading.record, opts.onWait);
  let tmux: TmuxOutcome | undefined;
  const change = await updateRecord(
    store,
    id,
    (record, ctx) => {
      assertNotRelaunched(store, id, reading.record, record);
      tmux = endTmuxSession(id, record);
      const next = stoppedRecord(record, ctx.pending, opts.leftovers ? "exited" : "spex");
      rmSync(sessionPaths(store, id).agentPid, { force: true });
      return sameRecord(next, record) ? undefined : next;
    },
    { allowRetired: true, reason: "stop", purpose: `stop ${id}` },
  );
  const freed = opts.drain === false ? { launchedFromQueue: [], queueFailures: [] } : await drainAfterFreeing(store);
  return { id, leaf: outcome, pid: leaf.pid || null, tmux: tmux!, others, changed: change !== undefined, skipped: false, change, ...freed };
}

export interface InterruptResult {
  id: string;
  keys: string[];
  tmuxSession: string;
}

/** Send the harness's interrupt keys to the session's pane; the session stays. */
export async function interruptSession(store: ProjectStore, id: string): Promise<InterruptResult> {
  const reading = readSession(store, id);
  refuseUnusable(reading);
  const record = publicRecord(reading.record, reading.pending);
  const adapter = harnessAdapter(record.harness || "shell");
  if (!hasTmuxSession(record)) {
    throw new SpexError("session_offline", `session ${id} has no tmux session to interrupt${record.tmux_session ? ` (${record.tmux_session} is gone)` : ""}`, {
      hint: `resume it with \`spex session resume ${id.slice(0, 8)}\``,
    });
  }
  const r = timed("tmux", () => sendKeys(record.tmux_socket, sessionPaneTarget(record.tmux_session), adapter.interruptKeys));
  if (r.code !== 0) {
    throw new SpexError("tmux_failed", `sending ${adapter.interruptKeys.join(" ")} to ${record.tmux_session} failed: ${r.stderr.trim()}`, {
      hint: "check that the tmux session still exists with `spex session ls`",
    });
  }
  // No agent CLI reports a turn ended by its interrupt key (no Stop hook): say so here.
  if (record.status === "active" || record.status === "asking") await declareState(store, id, { status: "idle" });
  return { id, keys: adapter.interruptKeys, tmuxSession: record.tmux_session };
}
