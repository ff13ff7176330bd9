// The launch readiness fence (DESIGN.md §3): while a launch is unproven the
// record holds the frozen original; readers show it, pinned offline. Success
// publishes the final record once; failure restores the original silently.
import { readFileSync } from "node:fs";
import { writeStoreFile } from "../nofollow";
import { errnoCode } from "../errors";
import { agentBoot, ownerAlive, selfIdentity } from "../proc";
import { type PendingOriginal, type RecordChange, type SessionRecord, parseRecord, serializeRecord, updateRecord } from "../record";
import { type ProjectStore, sessionPaths } from "../store";

export function readinessTimeout(): number {
  const v = Number(process.env.SPEX_READY_TIMEOUT_MS);
  return Number.isFinite(v) && v > 0 ? v : 30000;
}

export function freezeOriginal(r: SessionRecord): string {
  const original: PendingOriginal = { status: r.status, proposal: r.proposal, note: r.note, stopped: r.stopped, archived: r.archived };
  return JSON.stringify(original);
}

export function launcherFile(store: ProjectStore, id: string): string {
  return `${sessionPaths(store, id).dir}/launcher.json`;
}

/** Record this process as the one waiting on the session's readiness (a reader leaves the fence to it while it lives). */
export function markLauncher(store: ProjectStore, id: string): void {
  writeStoreFile(launcherFile(store, id), JSON.stringify(selfIdentity()) + "\n");
}

/** Is this process the recorded launcher of the session (it raised the fence itself, as a slot claim)? */
export function launcherIsSelf(store: ProjectStore, id: string): boolean {
  try {
    const owner = JSON.parse(readFileSync(launcherFile(store, id), "utf8"));
    const self = selfIdentity();
    return owner?.pid === self.pid && owner.start === self.start && owner.boot === self.boot;
  } catch {
    return false;
  }
}

/** Is the process that raised the fence still alive? undefined when no launcher was recorded (an older spex). */
export function launcherAlive(store: ProjectStore, id: string): boolean | undefined {
  let owner: { pid: number; start: string; boot: string };
  try {
    owner = JSON.parse(readFileSync(launcherFile(store, id), "utf8"));
  } catch {
    return undefined;
  }
  return typeof owner?.pid === "number" && ownerAlive(owner);
}

/** The pid and start identity the launch script recorded, if it has run. */
export function readAgentPid(store: ProjectStore, id: string): { pid: string; start: string } | undefined {
  let text: string;
  try {
    text = readFileSync(sessionPaths(store, id).agentPid, "utf8");
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return undefined;
    throw e;
  }
  const m = /^(\d+) (@?\d+)\s*$/.exec(text);
  return m ? { pid: m[1]!, start: m[2]! } : undefined;
}

/**
 * Clear the fence: publish the candidate with the agent's pid and (optionally)
 * its native id. A recorded native id is replaced only when the session's own
 * agent started a new conversation (a hook for another one is not this session's).
 */
export async function clearFence(store: ProjectStore, id: string, nativeId?: string, opts: { newConversation?: boolean } = {}): Promise<RecordChange | undefined> {
  const leaf = readAgentPid(store, id);
  return updateRecord(
    store,
    id,
    (r) => {
      const next = { ...r };
      if (nativeId && (r.harness_session_id === "" || opts.newConversation)) next.harness_session_id = nativeId;
      if (r.launch_readiness_pending !== "") {
        next.launch_readiness_pending = "";
        if (leaf) {
          next.agent_pid = leaf.pid;
          next.agent_start = leaf.start;
          // The boot it started in: a reader after a restart tells a machine that went down from an agent that exited.
          next.agent_boot = agentBoot();
        }
      }
      return serializeRecord(next) === serializeRecord(r) ? undefined : next;
    },
    { reason: "ready", purpose: `ready ${id}` },
  );
}

/** The fence was raised by the launch queue over a queued session (its frozen original is still `queued`). */
export function claimedFromQueue(r: Pick<SessionRecord, "launch_readiness_pending">): boolean {
  if (r.launch_readiness_pending === "") return false;
  try {
    return (JSON.parse(r.launch_readiness_pending) as PendingOriginal).status === "queued";
  } catch {
    return false;
  }
}

/**
 * Put the frozen original back and drop the candidate runtime (no lifecycle
 * event: readers saw the original all along). A session the launch queue
 * claimed comes back out of the queue (idle, stopped: a launch that failed is
 * not tried again by every drain; resume relaunches it), unless `requeue`:
 * its launcher died before any window opened, so it never ran and keeps its
 * place (issue 21 item 4).
 */
export async function restoreOriginal(store: ProjectStore, id: string, opts: { requeue?: boolean } = {}): Promise<RecordChange | undefined> {
  return updateRecord(
    store,
    id,
    (r) => {
      if (r.launch_readiness_pending === "") return undefined;
      const original = JSON.parse(r.launch_readiness_pending) as PendingOriginal;
      if (original.status === "queued" && !opts.requeue) Object.assign(original, { status: "idle", stopped: true });
      // A launch that failed holds no port block (lib/workspace).
      return { ...r, ...original, launch_readiness_pending: "", agent_pid: "", agent_start: "", ports: "" };
    },
    { reason: "launch-restore", allowRetired: true, purpose: `restore ${id}` },
  );
}

export { parseRecord };
