// `spex session wait` (DESIGN.md §7): park until a target's timeline moves
// past the caller's cursor (or, with --idle, until it is at rest). Woken by
// file notifications on the session folders, with a slow poll as a fallback
// for filesystems that do not deliver them.
import { existsSync, watch, type FSWatcher } from "node:fs";
import { labelOf, shortId } from "../naming";
import { publicRecord, readSession } from "../record";
import { type ProjectStore, sessionPaths } from "../store";
import { readCursor, writeCursor } from "./cursor";
import { recordAtRest } from "./deliver";
import { touchDurably } from "./files";
import { listPending, readQueueState } from "./queue";
import { type TimelineEvent, eventsAfter, lastSeq, lastStateEvent } from "./timeline";

export type WaitOutcome = "reached" | "timed_out" | "gone" | "stopped";

export interface WaitOptions {
  targets: string[];
  /** Wait for rest rather than for the next event. */
  idle?: boolean;
  /** With idle: every target must be at rest (default: any). */
  all?: boolean;
  /** undefined waits without end. */
  timeoutMs?: number;
  /** Resume from (and save) a cursor under this caller identity. */
  cursorKey?: string;
  /** The caller's own session id / sender name: its own messages do not wake it. */
  self?: { id?: string; name?: string };
  pollMs?: number;
}

export interface TargetState {
  id: string;
  shortId: string;
  label: string;
  status: string;
  proposal: string;
  note: string;
  stopped: boolean;
  archived: boolean;
  atRest: boolean;
  pendingMessages: number;
  gone: boolean;
}

export interface WaitResult {
  outcome: WaitOutcome;
  reached: boolean;
  waitedMs: number;
  events: Array<TimelineEvent & { session: string }>;
  sessions: TargetState[];
}

export function exitCodeOf(outcome: WaitOutcome): number {
  return outcome === "timed_out" ? 1 : outcome === "gone" ? 2 : 0;
}

function pollMs(opts: WaitOptions): number {
  if (opts.pollMs) return opts.pollMs;
  const v = Number(process.env.SPEX_WAIT_POLL_MS);
  return Number.isFinite(v) && v > 0 ? v : 1000;
}

/** Where a target stands now, including whether `--idle` would call it at rest. */
export function targetState(store: ProjectStore, id: string): TargetState {
  const reading = readSession(store, id);
  const base = { id, shortId: shortId(id, 8) };
  if (reading.kind !== "ok") {
    return { ...base, label: base.shortId, status: reading.kind, proposal: "", note: "", stopped: false, archived: false, atRest: false, pendingMessages: 0, gone: reading.kind === "absent" };
  }
  const view = publicRecord(reading.record, reading.pending);
  const pending = listPending(store, id).length;
  const rest = recordAtRest(reading, readQueueState(store, id), lastStateEvent(store, id)?.seq ?? 0);
  return {
    ...base,
    label: labelOf(view),
    status: view.status,
    proposal: view.proposal,
    note: view.note,
    stopped: view.stopped,
    archived: view.archived,
    atRest: rest.ok && pending === 0,
    pendingMessages: pending,
    gone: false,
  };
}

function ownMessage(e: TimelineEvent, self: WaitOptions["self"]): boolean {
  if (e.kind !== "message_in" || !self) return false;
  if (self.id && (e.from.kind === "session" || e.from.kind === "watch") && e.from.id === self.id) return true;
  return !!self.name && e.from.kind === "name" && e.from.name === self.name;
}

type Check = { outcome: WaitOutcome; events: Array<TimelineEvent & { session: string }> } | undefined;

export async function waitForTargets(store: ProjectStore, opts: WaitOptions): Promise<WaitResult> {
  const started = Date.now();
  const cursors = new Map<string, number>();
  for (const t of opts.targets) {
    const end = lastSeq(store, t);
    const saved = opts.cursorKey ? readCursor(store, t, opts.cursorKey) : undefined;
    cursors.set(t, saved !== undefined && saved <= end ? saved : end);
  }
  const moved = new Set<string>();

  const check = (): Check => {
    if (!existsSync(store.dir)) return { outcome: "gone", events: [] };
    const states = opts.targets.map((t) => targetState(store, t));
    if (states.some((s) => s.gone)) return { outcome: "gone", events: [] };
    if (opts.idle) {
      const settled = states.map((s) => s.atRest || s.stopped || s.archived);
      const ok = opts.all ? settled.every(Boolean) : settled.some(Boolean);
      if (!ok) return undefined;
      for (const t of opts.targets) {
        cursors.set(t, lastSeq(store, t));
        moved.add(t);
      }
      const restful = states.filter((s) => s.atRest);
      return { outcome: restful.length > 0 && (!opts.all || restful.length === states.length) ? "reached" : "stopped", events: [] };
    }
    const found: Array<TimelineEvent & { session: string }> = [];
    for (const t of opts.targets) {
      const evs = eventsAfter(store, t, cursors.get(t)!);
      if (evs.length === 0) continue;
      cursors.set(t, evs[evs.length - 1]!.seq);
      moved.add(t);
      for (const e of evs) if (!ownMessage(e, opts.self)) found.push({ ...e, session: t });
    }
    return found.length > 0 ? { outcome: "reached", events: found } : undefined;
  };

  const watchers: FSWatcher[] = [];
  let wake: (() => void) | undefined;
  // A notification that lands while we check (before we sleep) must not be lost.
  let dirty = false;
  const poke = () => {
    dirty = true;
    wake?.();
  };
  for (const t of opts.targets) {
    try {
      const w = watch(sessionPaths(store, t).dir, poke);
      w.on("error", poke);
      watchers.push(w);
    } catch {
      // no notifications for this folder: the poll covers it
    }
  }
  if (process.env.SPEX_TEST_WAIT_ARMED) touchDurably(process.env.SPEX_TEST_WAIT_ARMED);

  let result: Check;
  try {
    const deadline = opts.timeoutMs === undefined ? Infinity : started + opts.timeoutMs;
    for (;;) {
      dirty = false;
      result = check();
      if (result || Date.now() >= deadline) break;
      if (dirty) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, Math.min(pollMs(opts), deadline - Date.now())));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  } finally {
    for (const w of watchers) w.close();
  }
  const outcome = result?.outcome ?? "timed_out";
  if (opts.cursorKey && outcome !== "gone") {
    for (const t of moved) writeCursor(store, t, opts.cursorKey, cursors.get(t)!);
  }
  return {
    outcome,
    reached: outcome === "reached",
    waitedMs: Date.now() - started,
    events: result?.events ?? [],
    sessions: outcome === "gone" && !existsSync(store.dir) ? [] : opts.targets.map((t) => targetState(store, t)),
  };
}
