// One-line human summaries of teardown results, shared by the commands.
import type { RuntimeStop } from "./runtime";
import type { CloseResult } from "./close";
import type { WaitNotice } from "./leaf";
import type { FreedSlot } from "../create/launch-queue";

/** What a stop waits for, once the agent has not ended at once (printed on a terminal only). */
export function describeWait(id: string, n: WaitNotice): string {
  const who = n.pids.length === 1 ? `pid ${n.pids[0]}` : `pids ${n.pids.join(", ")}`;
  const sent = n.signals.map((s) => s.replace(/^SIG/, "")).join(" and ");
  const seconds = Math.round(n.graceMs / 100) / 10;
  return `waiting up to ${seconds} s for session ${id.slice(0, 8)} (${who}) to exit after ${sent}, then KILL (SPEX_STOP_GRACE_MS sets the wait)`;
}

export function describeRuntime(r: RuntimeStop): string {
  const leaf =
    r.leaf === "none"
      ? "no agent pid recorded"
      : r.leaf === "dead"
        ? `agent pid ${r.pid} already gone (record-only)`
        : r.leaf === "terminated"
          ? `agent pid ${r.pid} terminated`
          : `agent pid ${r.pid} killed after the grace period`;
  const tmux = r.tmux === "none" ? "no tmux session recorded" : r.tmux === "killed" ? "tmux session ended" : "tmux session already gone";
  const others = r.others.length ? `, ${r.others.length} other process${r.others.length > 1 ? "es" : ""} of the session ended (pid ${r.others.join(", ")})` : "";
  return `${leaf}, ${tmux}${others}`;
}

export function describeClose(r: CloseResult): string {
  const parts = [
    describeRuntime(r),
    r.worktree === "removed" ? "worktree removed" : r.worktree === "pruned" ? "stale worktree entry pruned" : "no worktree left",
    r.branch === "deleted" ? "branch deleted" : r.branch === "kept" ? "branch kept (it has unmerged commits; --force deletes it)" : "no branch left",
    ...(r.terminals.length > 0 ? [`${r.terminals.length} terminal${r.terminals.length > 1 ? "s" : ""} closed`] : []),
    "record removed",
  ];
  let text = `closed ${r.id.slice(0, 8)}${r.retired ? " (retired)" : ""}: ${parts.join(", ")}\n`;
  if (r.discarded.files.length) text += `discarded uncommitted and ignored files: ${r.discarded.files.join(", ")}\n`;
  if (r.teardown) {
    text += r.teardown.earlier
      ? "teardown not run again: it ran in an earlier close that was cut short\n"
      : r.teardown.ok
        ? "teardown ran\n"
        : `teardown failed (${r.teardown.reason}); closed anyway (--force)\n`;
  }
  if (r.discarded.commits.length) text += `discarded commits: ${r.discarded.commits.map((c) => `${c.sha} ${c.subject}`).join("; ")}${r.discarded.moreCommits ? "; and more" : ""}\n`;
  return text;
}

/** The launch queue's part of a verb that freed a slot: one line per kind, or nothing. */
export function describeFreed(r: FreedSlot): string {
  let text = "";
  if (r.launchedFromQueue.length) text += `launched from the queue: ${r.launchedFromQueue.map((id) => id.slice(0, 8)).join(", ")}\n`;
  for (const f of r.queueFailures) text += `queued session ${f.session.slice(0, 8)} did not launch: ${f.message} [${f.code}]\n`;
  return text;
}
