// The runtime half of a stop, in two phases. The leaf is signalled WITHOUT the
// record lock: an agent runs its own exit hooks (SessionEnd) on TERM, and those
// write the record through that lock, so holding it would stall every stop for
// the whole grace period. Then, under the lock, the recorded tmux session is
// ended and proven empty before anything durable changes.
import { SpexError } from "../errors";
import type { SessionRecord } from "../record";
import { type ProjectStore, sessionPaths } from "../store";
import { exactSession, killSession, sessionPaneTarget, sessionPanes, tmuxSync } from "../tmux";
import { tmuxCommandLine } from "../tmux/quote";
export { sessionPaneTarget } from "../tmux";
import { type EndOptions, type Leaf, type LeafOutcome, probe, recordedLeaf, stopLeaf, unprovableError } from "./leaf";
import { endSessionProcesses } from "./strays";
import { timed } from "./timing";

export type TmuxOutcome = "none" | "absent" | "killed";

export interface RuntimeStop {
  leaf: LeafOutcome;
  pid: number | null;
  tmux: TmuxOutcome;
  /** Other processes of the session that were still running and were ended (see strays.ts). */
  others: number[];
}

export interface LeafStop {
  leaf: Leaf;
  outcome: LeafOutcome;
  others: number[];
}

export function leafOf(store: ProjectStore, id: string, record: SessionRecord): Leaf {
  return recordedLeaf(record, sessionPaths(store, id).agentPid);
}

/** Refuse an unprovable leaf without signalling anything. */
export function refuseUnprovable(store: ProjectStore, id: string, record: SessionRecord): Leaf {
  const leaf = leafOf(store, id, record);
  if (probe(leaf) === "unprovable") throw unprovableError(id, leaf);
  return leaf;
}

/**
 * Phase one, outside the lock: TERM (HUP first for a shell), bounded wait, KILL an owned leaf (leave a
 * dead one alone); then end whatever else still runs as this session, such as
 * a daemon the agent started in a process session of its own.
 */
export function stopRecordedLeaf(store: ProjectStore, id: string, record: SessionRecord, onWait?: EndOptions["onWait"]): LeafStop {
  const leaf = leafOf(store, id, record);
  const opts: EndOptions = { harness: record.harness, onWait };
  const outcome = timed("leaf", () => stopLeaf(id, leaf, opts));
  return { leaf, outcome, others: timed("leaf", () => endSessionProcesses(store, id, record, opts)) };
}

/**
 * Phase two, under the lock: the record must not have been relaunched since
 * phase one (a live leaf now is someone else's start, not ours to end).
 */
export function assertNotRelaunched(store: ProjectStore, id: string, before: SessionRecord, now: SessionRecord): void {
  const leaf = leafOf(store, id, now);
  const fenceRaised = now.launch_readiness_pending !== "" && before.launch_readiness_pending === "";
  if (fenceRaised || probe(leaf) !== "dead") {
    throw new SpexError("session_relaunched", `session ${id.slice(0, 8)} was relaunched while it was being stopped (pid ${leaf.pid || "pending"}); nothing more was done`, {
      hint: "run the command again if you still mean it",
      details: { pid: leaf.pid || null },
    });
  }
}

export function panesOf(record: Pick<SessionRecord, "tmux_socket" | "tmux_session">): string[] {
  if (!record.tmux_session) return [];
  return timed("tmux", () => sessionPanes(record.tmux_socket, record.tmux_session));
}

/** Kill the recorded tmux session and prove no pane of it is left. */
export function endTmuxSession(id: string, record: Pick<SessionRecord, "tmux_socket" | "tmux_session">): TmuxOutcome {
  if (!record.tmux_session) return "none";
  const r = timed("tmux", () => killSession(record.tmux_socket, record.tmux_session));
  const left = panesOf(record);
  if (left.length > 0) {
    throw new SpexError("tmux_pane_left", `session ${id}: tmux session ${record.tmux_session} still has panes ${left.join(", ")} after kill-session; nothing durable was deleted`, {
      hint: `inspect it with \`${tmuxCommandLine(record.tmux_socket || "default", ["list-panes", "-s", "-t", sessionPaneTarget(record.tmux_session)])}\``,
      details: { tmuxSession: record.tmux_session, panes: left },
    });
  }
  return r.code === 0 ? "killed" : "absent";
}

/** Is the recorded tmux session there (for archive capture and interrupt)? */
export function hasTmuxSession(record: Pick<SessionRecord, "tmux_socket" | "tmux_session">): boolean {
  if (!record.tmux_session) return false;
  return timed("tmux", () => tmuxSync(record.tmux_socket, ["has-session", "-t", exactSession(record.tmux_session)]).code === 0);
}
