// bulk doctor: what looks wrong with each selected pane, read-only.
import { probeLeaf } from "../../proc";
import type { GovernedSession } from "../governed";
import type { LiveRow } from "../types";

export function findingsOf(row: LiveRow, s: GovernedSession | undefined): string[] {
  const out: string[] = [];
  if (row.paneDead) out.push("tmux reports the pane dead");
  if (row.status === "needs_attention") out.push(`waiting for a person: ${row.statusReason}`);
  if (!s) return out;
  if (s.retired) out.push(`the worktree ${s.record.worktree_path} is gone (retired): only close remains`);
  if (s.record.archived) out.push("the session is archived but its pane is still open");
  if (row.statusRule === "governed.agent-exited") out.push(row.statusReason);
  if (s.record.agent_pid) {
    const leaf = probeLeaf(s.record.agent_pid, s.record.agent_start);
    if (leaf === "dead" && !row.paneDead && row.paneId) out.push(`the recorded agent pid ${s.record.agent_pid} is not running`);
    if (leaf === "unprovable") out.push(`pid ${s.record.agent_pid} is alive but is not the recorded agent (start identity differs)`);
  }
  if (!row.paneId) out.push("the session has no tmux pane (stopped)");
  return out;
}
