// The per-session timeline (DESIGN.md §7): append-only NDJSON, one event per
// line, with a sequence that only grows. Appends happen only while the
// session's record lock is held, so reading the last sequence and writing the
// next one cannot interleave with another writer.
import { closeSync, constants, fstatSync, ftruncateSync, lstatSync, openSync, readSync, unlinkSync } from "node:fs";
import { errnoCode } from "../errors";
import { appendStoreFile, openStoreFileForRead } from "../nofollow";
import type { Lifecycle, Proposal } from "../record";
import { type ProjectStore, sessionPaths } from "../store";

export type Sender =
  | { kind: "session"; id: string; label: string }
  | { kind: "name"; name: string }
  | { kind: "user" }
  | { kind: "watch"; id: string; label: string };

export interface StateEvent {
  kind: "state";
  status: Lifecycle;
  prev: Lifecycle;
  proposal: Proposal;
  note: string;
  stopped: boolean;
  archived: boolean;
  /**
   * The record reached this state but its event was lost (the writer was killed between
   * the record write and the append): the next state change of the session appends it first.
   */
  recovered?: true;
}

export interface MessageInEvent {
  kind: "message_in";
  messageId: string;
  from: Sender;
  text?: string;
  keys?: string[];
}

export interface MessageOutEvent {
  kind: "message_out";
  messageId: string;
  to: string;
}

/** The session's branch landed on the main branch (lib/review). */
export interface MergeEvent {
  kind: "merge";
  into: string;
  /** "none": the branch's changes were found on `into` already, as copies (see lib/review/merge.ts). */
  landing: "fast-forward" | "merge-commit" | "squash" | "rebase" | "none";
  branch: string;
  /** The session's tip that landed: close counts commits up to it as merged, whatever the strategy. */
  branchHead: string;
  before: string;
  after: string;
  commits: number;
  /** The commit spex made of the uncommitted work first ("" when there was none). */
  workCommit: string;
}

export type EventBody = StateEvent | MessageInEvent | MessageOutEvent | MergeEvent;
export type TimelineEvent = EventBody & { seq: number; at: string };

const TAIL_CHUNK = 64 * 1024;

function timelineFile(store: ProjectStore, id: string): string {
  return sessionPaths(store, id).timeline;
}

function openForRead(file: string): number | undefined {
  try {
    return openStoreFileForRead(file);
  } catch (e) {
    const code = errnoCode(e);
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw e;
  }
}

function parseLine(line: string): TimelineEvent | undefined {
  if (!line) return undefined;
  try {
    const e = JSON.parse(line) as TimelineEvent;
    return typeof e?.seq === "number" && typeof e.kind === "string" ? e : undefined;
  } catch {
    return undefined; // a torn line from a crashed writer: skipped, never fatal
  }
}

/**
 * Events from the end of the file backwards until `stop` says enough (or the
 * file's start). Returned oldest first. Reads in chunks, so a long timeline
 * costs only its tail.
 */
function readBackwards(file: string, stop: (e: TimelineEvent) => boolean): { events: TimelineEvent[]; endsWithNewline: boolean; size: number } {
  const fd = openForRead(file);
  if (fd === undefined) return { events: [], endsWithNewline: true, size: 0 };
  try {
    const size = fstatSync(fd).size;
    const out: TimelineEvent[] = [];
    let pos = size;
    let carry = Buffer.alloc(0);
    let endsWithNewline = true;
    let first = true;
    while (pos > 0) {
      const len = Math.min(TAIL_CHUNK, pos);
      pos -= len;
      const buf = Buffer.alloc(len);
      readSync(fd, buf, 0, len, pos);
      const chunk = Buffer.concat([buf, carry]);
      if (first) {
        endsWithNewline = chunk[chunk.length - 1] === 0x0a;
        first = false;
      }
      let complete = chunk;
      carry = Buffer.alloc(0);
      if (pos > 0) {
        // Bytes before the first newline may continue a line that starts in an earlier chunk.
        const nl = chunk.indexOf(0x0a);
        if (nl === -1) {
          carry = chunk;
          continue;
        }
        carry = chunk.subarray(0, nl);
        complete = chunk.subarray(nl + 1);
      }
      const batch: TimelineEvent[] = [];
      for (const line of complete.toString("utf8").split("\n")) {
        const e = parseLine(line);
        if (e) batch.push(e);
      }
      out.unshift(...batch);
      if (batch.some(stop)) break;
    }
    return { events: out, endsWithNewline, size };
  } finally {
    closeSync(fd);
  }
}

/** The sequence of the newest event (0 for an empty or missing timeline). */
export function lastSeq(store: ProjectStore, id: string): number {
  const { events } = readBackwards(timelineFile(store, id), () => true);
  return events.length ? events[events.length - 1]!.seq : 0;
}

/** Events with seq greater than `after`, oldest first (at most `limit`, the oldest ones). */
export function eventsAfter(store: ProjectStore, id: string, after: number, limit = 1000): TimelineEvent[] {
  const { events } = readBackwards(timelineFile(store, id), (e) => e.seq <= after);
  return events.filter((e) => e.seq > after).slice(0, limit);
}

/** The newest state event, if any. */
export function lastStateEvent(store: ProjectStore, id: string): (StateEvent & { seq: number; at: string }) | undefined {
  const { events } = readBackwards(timelineFile(store, id), (e) => e.kind === "state");
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.kind === "state") return e;
  }
  return undefined;
}

/** The newest merge event, if any. */
export function lastMergeEvent(store: ProjectStore, id: string): (MergeEvent & { seq: number; at: string }) | undefined {
  const { events } = readBackwards(timelineFile(store, id), (e) => e.kind === "merge");
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.kind === "merge") return e;
  }
  return undefined;
}

/** Where a session's timeline ends now (undefined: no timeline yet), to take back what is appended after it. */
export function timelineEnd(store: ProjectStore, id: string): number | undefined {
  return lstatSync(timelineFile(store, id), { throwIfNoEntry: false })?.size;
}

/**
 * Take back the events appended since `end` (timelineEnd's answer), when the
 * step they announce failed after them (a full disk refused the queue entry of
 * a message already in the timeline). The caller holds the session's record
 * lock, as for appendEvent, so nothing else was appended meanwhile.
 */
export function takeBackTimeline(store: ProjectStore, id: string, end: number | undefined): void {
  const file = timelineFile(store, id);
  try {
    // Only a timeline spex made: whatever else is there now (a planted link) is left for the error to name.
    if (!lstatSync(file, { throwIfNoEntry: false })?.isFile()) return;
    if (end === undefined) {
      unlinkSync(file);
      return;
    }
    const fd = openSync(file, constants.O_WRONLY | constants.O_NOFOLLOW);
    try {
      if (fstatSync(fd).size > end) ftruncateSync(fd, end);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Best effort: the caller is already reporting the failure that brought it here.
  }
}

type StateFields = Pick<StateEvent, "status" | "proposal" | "note" | "stopped" | "archived">;

const sameState = (a: StateFields, b: StateFields) =>
  a.status === b.status && a.proposal === b.proposal && a.note === b.note && a.stopped === b.stopped && a.archived === b.archived;

/**
 * Append the state event of a change from `before` (what readers saw), the
 * caller holding the record lock. A writer killed between its record write and
 * this append left the timeline's last state short of the record: that state
 * is appended first (`recovered`), so a reader following the timeline still
 * sees every state the record went through, and `prev` chains. `lostFrom`
 * names the state the lost change left, for the notice it never sent.
 */
export function appendStateEvent(store: ProjectStore, id: string, before: StateFields, body: StateEvent): { events: TimelineEvent[]; lostFrom?: StateFields } {
  const file = timelineFile(store, id);
  const { events, endsWithNewline, size } = readBackwards(file, (e) => e.kind === "state");
  let seq = events.length ? events[events.length - 1]!.seq : 0;
  const last = events.findLast((e) => e.kind === "state") as StateEvent | undefined;
  const bodies: StateEvent[] = [];
  const lost = last && !sameState(last, before);
  if (lost) {
    const { status, proposal, note, stopped, archived } = before;
    bodies.push({ kind: "state", status, prev: last.status, proposal, note, stopped, archived, recovered: true });
  }
  bodies.push(body);
  const at = new Date().toISOString();
  const out = bodies.map((b) => ({ seq: ++seq, at, ...b }) as TimelineEvent);
  const text = (size > 0 && !endsWithNewline ? "\n" : "") + out.map((e) => JSON.stringify(e) + "\n").join("");
  // One append: both lines land together, or the failure takes back neither (appendFileNoFollow).
  appendStoreFile(file, text, { durable: true });
  if (!lost) return { events: out };
  const { status, proposal, note, stopped, archived } = last;
  return { events: out, lostFrom: { status, proposal, note, stopped, archived } };
}

/**
 * Append one event. The caller holds the session's record lock. A line torn by
 * a crashed writer is sealed with a newline first so the new event stays whole.
 */
export function appendEvent(store: ProjectStore, id: string, body: EventBody): TimelineEvent {
  const file = timelineFile(store, id);
  const { events, endsWithNewline, size } = readBackwards(file, () => true);
  const seq = (events.length ? events[events.length - 1]!.seq : 0) + 1;
  const event = { seq, at: new Date().toISOString(), ...body } as TimelineEvent;
  const line = (size > 0 && !endsWithNewline ? "\n" : "") + JSON.stringify(event) + "\n";
  // Never through a link planted at the session folder or the timeline itself.
  appendStoreFile(file, line, { durable: true });
  return event;
}
