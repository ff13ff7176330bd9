// A fence nobody waits on any more: a launch whose `new` or `resume` died (or
// gave up) while it waited. The next reader settles it once the launcher is
// gone or the readiness timeout has passed: an agent whose agent.pid names a
// live process of the recorded start time has reached readiness (published
// once, through the writer); otherwise the original comes back and, as for any
// failed launch, no lifecycle event is emitted. A session the launch queue
// claimed whose launcher died before any window opened goes back to the queue
// (an agent.pid left by its run before the claim does not count).
import { probeLeaf } from "../proc";
import { readSession } from "../record";
import type { ProjectStore } from "../store";
import { hasSession, sessionPaneStates } from "../tmux";
import { claimedFromQueue, clearFence, launcherAlive, readAgentPid, readinessTimeout, restoreOriginal } from "./fence";
import { keepQueueMarker } from "./queue-marker";
import { setupFinishedAt, setupRunning } from "../workspace";

function paneAlive(socket: string, name: string): boolean {
  const states = sessionPaneStates(socket, name);
  return states !== undefined && "panes" in states && states.panes.some((p) => !p.dead);
}
export type FenceSettlement = "ready" | "restored";

/** Settle one fenced session whose launch nobody waits on any more; undefined while it may still prove itself (or was not fenced). */
export async function settleFence(store: ProjectStore, id: string, now = Date.now()): Promise<FenceSettlement | undefined> {
  const reading = readSession(store, id);
  if (reading.kind !== "ok" || !reading.pending) return undefined;
  const { record } = reading;
  // A launch that ran a setup first gets the readiness timeout from the moment the setup finished.
  const since = Math.max(Date.parse(record.updatedAt), setupFinishedAt(store, id) ?? 0);
  const timedOut = now - since >= readinessTimeout();
  // A launcher still waiting settles its own fence.
  const launcher = launcherAlive(store, id);
  if (!timedOut && launcher !== false) return undefined;
  const leaf = readAgentPid(store, id);
  // Either result also stands when a racing reader published it first (the writer makes the second a no-op).
  if (leaf && probeLeaf(leaf.pid, leaf.start) === "owned") {
    await clearFence(store, id);
    return "ready";
  }
  // The launch script has not recorded its pid yet: give it the readiness timeout (and a setup still running all its time).
  if (!leaf && record.tmux_session && (!timedOut || setupRunning(store, id)) && paneAlive(record.tmux_socket, record.tmux_session)) return undefined;
  // A queue claim whose launcher died before any window opened never ran: it goes back to its place in the queue.
  // Still `stopped` as the claim left it, the launch never raised its own fence (which comes before its window), so
  // an agent.pid there is an earlier run's: a session `resume --all` queued has one, and it must not pass for this launch's.
  const neverRan =
    launcher === false &&
    claimedFromQueue(record) &&
    (record.stopped || (!leaf && !(record.tmux_session && hasSession(record.tmux_socket, record.tmux_session))));
  await restoreOriginal(store, id, { requeue: neverRan });
  if (neverRan) await keepQueueMarker(store);
  return "restored";
}

