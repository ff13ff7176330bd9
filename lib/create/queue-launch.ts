// The launch queue's launching half (lib/create/launch-queue.ts keeps the
// gate): under the project lock, count the slots in use again and claim the
// oldest queued sessions by raising their readiness fence; then launch each
// one. Loaded only when the queue's marker says a session may be waiting.
import { loadConfig } from "../config";
import { SpexError } from "../errors";
import { withLock } from "../lock";
import { updateRecord } from "../record";
import { type ProjectStore, projectLockPath } from "../store";
import { launchQueue, readAll } from "../sessions";
import { everLaunched, freezeOriginal, launchSession, markLauncher, restoreOriginal, settleFence } from "../launch";
import { claimedFromQueue } from "../launch/fence";
import { faultPoint } from "../faults";
import { syncQueueMarker } from "../launch/queue-marker";
import { typeFirstCommand } from "../comms/first-command";
import { clearResumeQueued, resumeQueued } from "../survive/resume-marker";
import { type DrainOptions, type QueueDrain, usedSlots } from "./launch-queue";

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

/** The drain past its gate (launch-queue.ts): claim free slots under the project lock, then launch. */
export async function launchFromQueue(store: ProjectStore, opts: DrainOptions): Promise<QueueDrain> {
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
    // A session `resume --all` queued goes back into its own conversation; any other starts with its prompt.
    const resume = resumeQueued(store, id) && everLaunched(store, id);
    try {
      const launched = await launchSession(store, id, { claimed: true, wait: opts.wait ?? false, resume });
      faultPoint("queue-launched");
      clearResumeQueued(store, id);
      result.launched.push(id);
      await typeFirstCommand(store, id, launched);
    } catch (e) {
      // Whatever refused, the claim's fence must not outlive it: the session is left offline, out of the queue.
      await restoreOriginal(store, id).catch(() => undefined);
      clearResumeQueued(store, id);
      result.failed.push(
        e instanceof SpexError
          ? new SpexError(e.code, `queued session ${id.slice(0, 8)} could not be launched: ${e.message}`, { hint: e.hint, details: { session: id } })
          : new SpexError("launch_failed", `queued session ${id.slice(0, 8)} could not be launched: ${(e as Error).message}`, { hint: "see `spex session show`, then resume it", details: { session: id } }),
      );
    }
  }
  return result;
}
