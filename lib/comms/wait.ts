// `spex session wait` (DESIGN.md §7): park until a target's timeline moves
// past the caller's cursor, or (--idle) until it is at rest, or (--until)
// until it shows one of some display statuses; end early when it dies. Woken
// by file notifications on the session folders, with a slow poll as a
// fallback; a death writes nothing, so running targets are also probed on a
// short liveness tick.
import { existsSync, watch, type FSWatcher } from "node:fs";
import { SpexError } from "../errors";
import { shortId } from "../naming";
import { DISPLAY_STATUSES, type DisplayStatus } from "../record";
import { type ProjectStore, sessionPaths } from "../store";
import { readCursor, writeCursor } from "./cursor";
import { touchDurably } from "./files";
import { PaneLookup, type TargetState, targetState } from "./target-state";
import { type TimelineEvent, eventsAfter, lastSeq } from "./timeline";

export type { TargetState } from "./target-state";
export type WaitOutcome = "reached" | "timed_out" | "gone" | "stopped" | "died" | "stalled";

/** The agent-facing wait (seed 002): 50 s unless asked, never more than 5 min. The CLI waits as long as its --timeout. */
export const AGENT_WAIT_DEFAULT_MS = 50_000;
export const AGENT_WAIT_MAX_MS = 5 * 60_000;

export function agentWaitTimeoutMs(requestedMs?: number): number {
  if (requestedMs === undefined || !Number.isFinite(requestedMs) || requestedMs < 0) return AGENT_WAIT_DEFAULT_MS;
  return Math.min(requestedMs, AGENT_WAIT_MAX_MS);
}

export interface WaitOptions {
  targets: string[];
  /** Wait for rest rather than for the next event. */
  idle?: boolean;
  /** Wait until a target shows one of these display statuses. */
  until?: DisplayStatus[];
  /** With idle/until: every target must get there (default: any). */
  all?: boolean;
  /** undefined waits without end. */
  timeoutMs?: number;
  /** Resume from (and save) a cursor under this caller identity. */
  cursorKey?: string;
  /** The caller's own session id / sender name: its own messages do not wake it, and it may not wait on itself. */
  self?: { id?: string; name?: string };
  pollMs?: number;
  /**
   * The caller gave up (an MCP client cancelled the call): the wait ends at
   * once and moves no cursor, since nobody will receive what it would return.
   */
  signal?: AbortSignal;
  /**
   * Looks at running targets' panes for a stall no hook reports (a rate limit,
   * a bad key), recording it on the session; called every SPEX_WAIT_STALL_MS
   * (2 s) while a target runs. Passed in by the caller (lib/attention).
   */
  probe?: (ids: string[]) => Promise<unknown>;
}

export interface WaitResult {
  outcome: WaitOutcome;
  reached: boolean;
  waitedMs: number;
  events: Array<TimelineEvent & { session: string }>;
  sessions: TargetState[];
}

/** 0 reached or stopped, 1 timed out, 2 gone, died or stalled (the JSON outcome tells them apart). */
export function exitCodeOf(outcome: WaitOutcome): number {
  return outcome === "timed_out" ? 1 : outcome === "gone" || outcome === "died" || outcome === "stalled" ? 2 : 0;
}

function envMs(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

/** Parse `--until a,b`: display statuses only; anything else is a usage error. */
export function parseUntil(text: string): DisplayStatus[] {
  const names = text.split(",").map((s) => s.trim()).filter(Boolean);
  const known = new Set<string>(DISPLAY_STATUSES);
  const unknown = names.filter((n) => !known.has(n));
  if (names.length === 0 || unknown.length > 0) {
    throw new SpexError("usage", names.length === 0 ? "--until needs at least one status" : `unknown status ${unknown.join(", ")} for --until`, {
      hint: `use display statuses as \`spex session ls\` shows them: ${DISPLAY_STATUSES.join(", ")}`,
      exitCode: 2,
      httpStatus: 400,
    });
  }
  return [...new Set(names)] as DisplayStatus[];
}

function refuseShape(opts: WaitOptions): void {
  if (opts.idle && opts.until) {
    throw new SpexError("usage", "give --idle or --until, not both", { hint: "--until idle waits for the idle display status; --idle also waits for the queue to empty", exitCode: 2, httpStatus: 400 });
  }
  const self = opts.self?.id;
  if (self && opts.targets.includes(self)) {
    throw new SpexError("wait_self", `session ${shortId(self, 8)} cannot wait on itself`, {
      hint: "name the sessions to wait on, leaving out your own (SPEX_SESSION_ID)",
      httpStatus: 400,
    });
  }
}

function ownMessage(e: TimelineEvent, self: WaitOptions["self"]): boolean {
  if (e.kind !== "message_in" || !self) return false;
  if (self.id && (e.from.kind === "session" || e.from.kind === "watch") && e.from.id === self.id) return true;
  return !!self.name && e.from.kind === "name" && e.from.name === self.name;
}

type Check = { outcome: WaitOutcome; events: Array<TimelineEvent & { session: string }> } | undefined;

export async function waitForTargets(store: ProjectStore, opts: WaitOptions): Promise<WaitResult> {
  refuseShape(opts);
  const started = Date.now();
  const cursors = new Map<string, number>();
  for (const t of opts.targets) {
    const end = lastSeq(store, t);
    const saved = opts.cursorKey ? readCursor(store, t, opts.cursorKey) : undefined;
    cursors.set(t, saved !== undefined && saved <= end ? saved : end);
  }
  const moved = new Set<string>();
  const livenessMs = envMs("SPEX_WAIT_LIVENESS_MS", 500);
  const panes = new PaneLookup(livenessMs);
  // Targets dead when the wait began: with several targets (any of them) the others may still answer.
  let deadAtStart: Set<string> | undefined;
  let stalledAtStart: Set<string> | undefined;
  let running = false;

  const check = (): Check => {
    if (!existsSync(store.dir)) return { outcome: "gone", events: [] };
    const states = opts.targets.map((t) => targetState(store, t, panes));
    if (states.some((s) => s.gone)) return { outcome: "gone", events: [] };
    running = states.some((s) => s.running && !s.died);
    deadAtStart ??= new Set(states.filter((s) => s.died).map((s) => s.id));
    stalledAtStart ??= new Set(states.filter((s) => s.stall).map((s) => s.id));
    // Held up by its API (a rate limit, a login): nobody's wait should run out on it.
    const stalled = states.filter((s) => s.stall && !s.died);
    const stalledNow = stalled.some((s) => !stalledAtStart!.has(s.id));
    const found: Array<TimelineEvent & { session: string }> = [];
    if (!opts.idle && !opts.until) {
      for (const t of opts.targets) {
        const evs = eventsAfter(store, t, cursors.get(t)!);
        if (evs.length === 0) continue;
        cursors.set(t, evs[evs.length - 1]!.seq);
        moved.add(t);
        for (const e of evs) if (!ownMessage(e, opts.self)) found.push({ ...e, session: t });
      }
      // News first: what happened before a death is handed over; the next wait reports the death.
      // A stall is itself the news: its event comes back with it, as `stalled`.
      if (found.length > 0) return { outcome: stalledNow ? "stalled" : "reached", events: found };
    }
    const wanted = (s: TargetState) => (opts.until ? opts.until.includes(s.display) : s.atRest);
    const some = (xs: boolean[]) => (opts.all ? xs.every(Boolean) : xs.some(Boolean));
    if (opts.until && some(states.map(wanted))) return { outcome: "reached", events: [] };
    const dead = states.filter((s) => s.died);
    const diedNow = dead.some((s) => !deadAtStart!.has(s.id));
    if (diedNow || (dead.length > 0 && (opts.all || dead.length === states.length))) return { outcome: "died", events: [] };
    if (stalledNow || (stalled.length > 0 && (opts.all || stalled.length === states.length))) return { outcome: "stalled", events: [] };
    if (!opts.idle && !opts.until) return undefined;
    const alive = states.filter((s) => !s.died);
    const ended = alive.map((s) => wanted(s) || s.stopped || s.archived);
    if (!(opts.all ? ended.every(Boolean) : ended.some(Boolean))) return undefined;
    for (const t of opts.targets) {
      cursors.set(t, lastSeq(store, t));
      moved.add(t);
    }
    const got = alive.filter(wanted);
    return { outcome: got.length > 0 && (!opts.all || got.length === alive.length) ? "reached" : "stopped", events: [] };
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
    const pollMs = opts.pollMs ?? envMs("SPEX_WAIT_POLL_MS", 1000);
    const probeMs = envMs("SPEX_WAIT_STALL_MS", 2000);
    let probedAt = 0;
    for (;;) {
      if (opts.signal?.aborted) break;
      // What no hook reports (a stall on a pane): looked at now and then while a target runs.
      if (opts.probe && (running || probedAt === 0) && Date.now() - probedAt >= probeMs) {
        probedAt = Date.now();
        await opts.probe(opts.targets).catch(() => undefined);
      }
      dirty = false;
      result = check();
      if (result || Date.now() >= deadline) break;
      if (dirty) continue;
      // A running target can die without writing anything: look again on the liveness tick.
      const nap = running ? Math.min(pollMs, livenessMs) : pollMs;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, Math.min(nap, deadline - Date.now())));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
        opts.signal?.addEventListener("abort", wake, { once: true });
      });
      if (wake) opts.signal?.removeEventListener("abort", wake);
      wake = undefined;
    }
  } finally {
    for (const w of watchers) w.close();
  }
  if (opts.signal?.aborted) return { outcome: "timed_out", reached: false, waitedMs: Date.now() - started, events: [], sessions: [] };
  const outcome = result?.outcome ?? "timed_out";
  if (opts.cursorKey && outcome !== "gone") {
    for (const t of moved) writeCursor(store, t, opts.cursorKey, cursors.get(t)!);
  }
  return {
    outcome,
    reached: outcome === "reached",
    waitedMs: Date.now() - started,
    events: result?.events ?? [],
    sessions: outcome === "gone" && !existsSync(store.dir) ? [] : opts.targets.map((t) => targetState(store, t, panes)),
  };
}
