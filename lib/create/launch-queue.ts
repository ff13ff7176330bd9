// The launch queue (seed 001, DESIGN.md §9, issue 13 item 4). Past
// `sessions.maxActive` a create records its session `queued` instead of
// refusing; whichever spex process frees a slot (stop, archive --stop, close,
// the agent's own exit, an agent coming to rest when so configured) or lists
// the sessions drains the queue: no daemon. Exactly once across processes:
// under the project lock the drain counts the slots in use again and claims
// the oldest queued sessions by raising their readiness fence, which both
// takes them out of the queue and counts them as used before the lock is
// released; the launch itself runs after.
import type { SpexConfig } from "../config";
import { SpexError } from "../errors";
import { probeLeaf } from "../proc";
import { type RecordReading, readSession } from "../record";
import type { ProjectStore } from "../store";
import { launchQueue, readAll } from "../sessions";
import { queueMayWait } from "../launch/queue-marker";

/**
 * A slot is held by a launch under way (its fence) or a live agent, archived
 * or not: archiving files a row away but leaves its pane running (issue 16).
 * With `sessions.idleFreesSlot` an agent at rest holds none.
 */
export function holdsSlot(reading: RecordReading, idleFreesSlot: boolean): boolean {
  if (reading.kind !== "ok") return false;
  if (reading.pending) return true;
  const r = reading.record;
  if (r.stopped || !r.agent_pid) return false;
  if (idleFreesSlot && (r.status === "idle" || r.status === "awaiting")) return false;
  return probeLeaf(r.agent_pid, r.agent_start) === "owned";
}

export function usedSlots(readings: readonly RecordReading[], config: Pick<SpexConfig, "idleFreesSlot">): number {
  return readings.filter((r) => holdsSlot(r, config.idleFreesSlot)).length;
}

/** A create's answer under the project lock: launch now, or queue (nobody jumps a waiting queue). */
export function launchDecision(readings: readonly RecordReading[], config: Pick<SpexConfig, "maxActive" | "idleFreesSlot">): "launch" | "queue" {
  if (launchQueue(readings).length > 0) return "queue";
  return usedSlots(readings, config) < config.maxActive ? "launch" : "queue";
}

export interface QueueDrain {
  /** Sessions this drain launched, in queue order. */
  launched: string[];
  /** Launches that failed (each session is left offline, out of the queue). */
  failed: SpexError[];
  /** Sessions still waiting. */
  waiting: number;
}

const NOTHING: QueueDrain = { launched: [], failed: [], waiting: 0 };

export interface DrainOptions {
  /** Read the records even without the marker (a listing that saw a queued row). */
  force?: boolean;
  /** Wait for each launched agent's readiness (default: no, the caller freed a slot and goes on). */
  wait?: boolean;
}

/** Launch the oldest queued sessions while slots are free. */
export async function drainLaunchQueue(store: ProjectStore, opts: DrainOptions = {}): Promise<QueueDrain> {
  if (!opts.force && !queueMayWait(store)) return NOTHING;
  // Loaded here: launching brings git, tmux, the harnesses and the workspace, and most callers find no queue.
  const { launchFromQueue } = await import(/* webpackMode: "eager" */ "./queue-launch");
  return launchFromQueue(store, opts);
}

/** The session's place in the queue now (1 launches next), or null. */
export function queuePositionOf(store: ProjectStore, id: string): number | null {
  const reading = readSession(store, id);
  if (reading.kind !== "ok" || reading.record.status !== "queued") return null;
  const at = launchQueue(readAll(store)).findIndex((r) => r.id === id);
  return at < 0 ? null : at + 1;
}

/** What a verb that freed a slot reports of the queue it drained. */
export interface FreedSlot {
  /** Queued sessions this verb launched into the slots it freed. */
  launchedFromQueue: string[];
  /** Queued sessions whose launch failed (left offline, out of the queue). */
  queueFailures: { session: string; code: string; message: string }[];
}

/** After a stop, an archive --stop, a close: drain, never failing the verb that freed the slot. */
export async function drainAfterFreeing(store: ProjectStore): Promise<FreedSlot> {
  try {
    const drain = await drainLaunchQueue(store);
    return {
      launchedFromQueue: drain.launched,
      queueFailures: drain.failed.map((e) => ({ session: String(e.details?.session ?? ""), code: e.code, message: e.message })),
    };
  } catch (e) {
    return { launchedFromQueue: [], queueFailures: [{ session: "", code: e instanceof SpexError ? e.code : "internal_error", message: (e as Error).message }] };
  }
}
