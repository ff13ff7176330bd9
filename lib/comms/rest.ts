// When a target may be typed into (DESIGN.md §1.11, §7): at rest by one
// consistent reading of its record and timeline, and alive.
import { type RecordReading, type SessionRecord, publicRecord, readSession } from "../record";
import { probeLeaf } from "../proc";
import type { ProjectStore } from "../store";
import type { PaneState } from "../tmux";
import type { QueueState } from "./queue";
import { type TimelineEvent, lastStateEvent } from "./timeline";

type StateEvent = Extract<TimelineEvent, { kind: "state" }>;

export interface RestReading {
  reading: RecordReading;
  lastState: StateEvent | undefined;
}

/**
 * The timeline first, then the record. A state change writes the record and
 * then appends its event (both under the record lock), so the record read
 * second is never older than the timeline read first: a hook landing between
 * the two reads shows in the record, never as a fresh event beside a stale
 * record.
 */
export function readRest(store: ProjectStore, id: string): RestReading {
  const lastState = lastStateEvent(store, id);
  return { lastState, reading: readSession(store, id) };
}

const atRestStatus = (s: string) => s === "idle" || s === "awaiting";

/**
 * The record half of "at rest": idle or awaiting by its hooks, running, and
 * past the turn of the previous message — the newest state event came after
 * its claim and itself reports rest — so a message is never typed between
 * Enter and the agent's own turn report, nor into the turn that report starts.
 */
export function recordAtRest({ reading, lastState }: RestReading, queue: QueueState): { ok: boolean; reason: string } {
  if (reading.kind !== "ok") return { ok: false, reason: `the record is ${reading.kind}` };
  if (reading.pending) return { ok: false, reason: "the session is still starting" };
  const view = publicRecord(reading.record, reading.pending);
  if (view.stopped) return { ok: false, reason: "the agent is stopped; the message waits for a resume" };
  if (view.archived) return { ok: false, reason: "the session is archived" };
  if (!atRestStatus(view.status)) return { ok: false, reason: `the agent is ${view.status}` };
  if (queue.lastHandover) {
    const turn = `waiting for the agent to report the turn of ${queue.lastHandover.messageId}`;
    if (!lastState || lastState.seq <= queue.lastHandover.claimSeq) return { ok: false, reason: turn };
    if (!atRestStatus(lastState.status) || lastState.stopped) return { ok: false, reason: `${turn} (it reported ${lastState.status})` };
  }
  return { ok: true, reason: "" };
}

/** The record says its agent runs in tmux: launched, not starting, stopped or archived. */
export function runsInTmux(reading: RecordReading): boolean {
  if (reading.kind !== "ok" || reading.pending) return false;
  const view: SessionRecord = reading.record;
  return !view.stopped && !view.archived && view.tmux_session !== "";
}

/** What tmux says of a session's pane: its state, "gone" (no such session or server), or "unknown" (tmux failed). */
export type PaneFact = PaneState | "gone" | "unknown";

/**
 * Why a session that should be running cannot take input, or "" when it can
 * (or is not meant to be running: starting, stopped, archived, never
 * launched). Its tmux session may be gone, its pane dead (remain-on-exit
 * keeps it), or its recorded agent process gone.
 */
export function deathOf(reading: RecordReading, paneOf: () => PaneFact): string {
  if (reading.kind !== "ok" || !runsInTmux(reading)) return "";
  const view = reading.record;
  const pane = paneOf();
  if (pane === "gone") return `its tmux session ${view.tmux_session} is gone`;
  if (view.agent_pid) {
    const leaf = probeLeaf(view.agent_pid, view.agent_start);
    if (leaf === "dead") return `the agent (pid ${view.agent_pid}) is not running`;
    if (leaf === "unprovable") return `the agent (pid ${view.agent_pid}) is not running; that pid now names another process`;
  }
  if (pane !== "unknown" && pane.dead) return `its pane ${pane.id} is dead (the agent exited)`;
  return "";
}
