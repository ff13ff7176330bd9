// The runtime half of a stop: the agent leaf (guarded), then the recorded tmux
// session, proven empty before anything durable is deleted.
import { SpexError } from "../errors";
import type { SessionRecord } from "../record";
import { type ProjectStore, sessionPaths } from "../store";
import { exactSession, killSession, sessionPanes, tmuxSync } from "../tmux";
import { type Leaf, type LeafOutcome, recordedLeaf, stopLeaf } from "./leaf";
import { timed } from "./timing";

export type TmuxOutcome = "none" | "absent" | "killed";

export interface RuntimeStop {
  leaf: LeafOutcome;
  pid: number | null;
  tmux: TmuxOutcome;
}

/** The `target-pane` form of a session's active pane (`=name` alone does not resolve to a pane). */
export function sessionPaneTarget(name: string): string {
  return `${exactSession(name)}:`;
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
      hint: `inspect it with \`tmux -L ${record.tmux_socket || "default"} list-panes -s -t =${record.tmux_session}\``,
      details: { tmuxSession: record.tmux_session, panes: left },
    });
  }
  return r.code === 0 ? "killed" : "absent";
}

/** Leaf first (identity-checked: an unprovable one refuses before any signal), then tmux. */
export function stopRuntime(store: ProjectStore, id: string, record: SessionRecord): RuntimeStop {
  const leaf: Leaf = recordedLeaf(record, sessionPaths(store, id).agentPid);
  const leafOutcome = stopLeaf(id, leaf);
  const tmux = endTmuxSession(id, record);
  return { leaf: leafOutcome, pid: leaf.pid || null, tmux };
}

/** Is the recorded tmux session there (for archive capture and interrupt)? */
export function hasTmuxSession(record: Pick<SessionRecord, "tmux_socket" | "tmux_session">): boolean {
  if (!record.tmux_session) return false;
  return timed("tmux", () => tmuxSync(record.tmux_socket, ["has-session", "-t", exactSession(record.tmux_session)]).code === 0);
}
