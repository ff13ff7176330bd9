// The launch queue (seed 001, DESIGN.md §9, issue 13 item 4). Past
// `sessions.maxActive` a create records its session `queued` instead of
// refusing; whichever spex process frees a slot (stop, archive --stop, close,
// the agent's own exit, an agent coming to rest when so configured) or lists
// the sessions drains the queue: no daemon. Exactly once across processes:
// under the project lock the drain counts the slots in use again and claims
// the oldest queued sessions by raising their readiness fence, which both
// takes them out of the queue and counts them as used before the lock is
// released; the launch itself runs after.
import { type SpexConfig, loadConfig } from "../config";
import { SpexError } from "../errors";
import { withLock } from "../lock";
import { probeLeaf } from "../proc";
import { type RecordReading, readSession, updateRecord } from "../record";
import { type ProjectStore, projectLockPath } from "../store";
import { launchQueue, readAll } from "../sessions";
import { freezeOriginal, launchSession, markLauncher, restoreOriginal, settleFence } from "../launch";
import { claimedFromQueue } from "../launch/fence";
import { faultPoint } from "../faults";
import { queueMayWait, syncQueueMarker } from "../launch/queue-marker";
import { typeFirstCommand } from "../comms/first-command";

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

/**
 * Claim a queued session's slot (under the project lock): raise its fence over
 * the queued original. A launch that fails restores it offline, out of the
 * queue (resume relaunches it) rather than queued to fail again; a claimer
 * that dies before the window opens leaves a fence the next reader settles
 * back into the queue (settle.ts), so the freed slot still reaches it.
 */
async function claimSlot(store: ProjectStore, id: string): Promise<boolean> {
  markLauncher(store, id);
  const change = await updateRecord(
    store,
    id,
    (r, ctx) => {
      if (r.status !== "queued" || ctx.pending || r.archived) return undefined;
      return { ...r, status: "idle" as const, stopped: true, launch_readiness_pending: freezeOriginal(r) };
    },
    { reason: "launch-claim", purpose: `claim a launch slot for ${id}` },
  );
  return change !== undefined;
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
  // A fence nobody waits on any more holds a slot until settled: settle those first.
  for (const r of readAll(store)) if (r.kind === "ok" && r.pending) await settleFence(store, r.id).catch(() => undefined);
  const config = loadConfig(store.root);
  const { claimed, waiting } = await withLock(
    projectLockPath(store),
    async () => {
      const readings = readAll(store);
      const queue = launchQueue(readings);
      let free = config.maxActive - usedSlots(readings, config);
      const ids: string[] = [];
      for (const q of queue) {
        if (free <= 0) break;
        if (await claimSlot(store, q.id).catch(() => false)) {
          ids.push(q.id);
          free--;
        }
      }
      // The claims stay counted until their fences settle: whoever dies after this, a later reader still looks.
      const inFlight = readings.filter((r) => r.kind === "ok" && claimedFromQueue(r.record)).length;
      syncQueueMarker(store, queue.length + inFlight);
      return { claimed: ids, waiting: queue.length - ids.length };
    },
    { purpose: "drain the launch queue" },
  );
  faultPoint("queue-claimed");
  const result: QueueDrain = { launched: [], failed: [], waiting };
  for (const id of claimed) {
    try {
      const launched = await launchSession(store, id, { claimed: true, wait: opts.wait ?? false });
      faultPoint("queue-launched");
      result.launched.push(id);
      await typeFirstCommand(store, id, launched);
    } catch (e) {
      // Whatever refused, the claim's fence must not outlive it: the session is left offline, out of the queue.
      await restoreOriginal(store, id).catch(() => undefined);
      result.failed.push(
        e instanceof SpexError
          ? new SpexError(e.code, `queued session ${id.slice(0, 8)} could not be launched: ${e.message}`, { hint: e.hint, details: { session: id } })
          : new SpexError("launch_failed", `queued session ${id.slice(0, 8)} could not be launched: ${(e as Error).message}`, { hint: "see `spex session show`, then resume it", details: { session: id } }),
      );
    }
  }
  return result;
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
