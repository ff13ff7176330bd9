// The board's actions: each one the same lib call its CLI verb makes (cmd/session/*.ts,
// cmd/terminal/new.ts), answering one line for the footer. A refusal throws the
// verb's own SpexError; the board shows its message and hint.
import { resolveSender, sendToSelector } from "../../comms";
import { printable } from "../../cli/output";
import { SpexError } from "../../errors";
import { readSession } from "../../record";
import { describeMerge, diffSession, mergeSession } from "../../review";
import { resolveSelector } from "../../sessions";
import type { ProjectStore } from "../../store";
import {
  archiveSession,
  closeSession,
  describeClose,
  describeRuntime,
  gatherCloseFacts,
  planClose,
  restoreArchived,
  resumeAll as resumeFleet,
  resumeSession,
  stopSession,
} from "../../teardown";
import { newTerminal } from "../../terminals";
import { newSession } from "../../verbs/new";
import { isSessionId } from "../../store";
import type { BoardDiff, CloseDiscards, MergeChoice, NewSessionForm } from "../model/services";

const short = (id: string) => id.slice(0, 8);
const oneLine = (text: string) => printable(text.trim().replace(/\s*\n\s*/g, "; "));

export async function send(store: ProjectStore, id: string, text: string): Promise<string> {
  const r = await sendToSelector(store, id, { from: resolveSender(store, undefined), text, keys: [], deliver: true });
  const why = r.reason ? ` (${r.reason})` : "";
  const where = r.state === "queued" ? `, position ${r.queuePosition}` : "";
  return `sent to ${short(id)}: ${r.state}${where}${why}`;
}

/** The branch's work with what is not committed yet (`session diff --worktree`): what a reviewer wants to see. */
export async function diff(store: ProjectStore, id: string): Promise<BoardDiff> {
  const d = await diffSession(store, id, { worktree: true });
  const files = `${d.files.length} file${d.files.length === 1 ? "" : "s"}`;
  const summary =
    d.files.length === 0
      ? `${d.branch}: no changes against ${d.forkPoint.slice(0, 10)} (its fork point from ${d.into})`
      : `${d.branch} → ${d.into}: ${files}, +${d.additions} −${d.deletions}${d.uncommitted.length > 0 ? `, ${d.uncommitted.length} not committed` : ""}${d.truncated ? " (cut)" : ""}`;
  return { summary: printable(summary), patch: printable(d.patch ?? ""), uncommitted: d.uncommitted.map(printable) };
}

export async function merge(store: ProjectStore, id: string, strategy: MergeChoice, includeUncommitted: boolean): Promise<string> {
  const r = await mergeSession(store, id, { strategy, includeUncommitted });
  return oneLine(describeMerge(r));
}

export async function stop(store: ProjectStore, id: string): Promise<string> {
  const r = await stopSession(store, id);
  return oneLine(`stopped ${short(id)}: ${describeRuntime(r)}`);
}

export async function archive(store: ProjectStore, id: string): Promise<string> {
  const r = await archiveSession(store, id, {});
  return `archived ${short(id)}: ${r.screenBytes === null ? "no pane to capture" : "last screen saved"}`;
}

export async function restore(store: ProjectStore, id: string): Promise<string> {
  const r = await restoreArchived(store, id);
  return `${r.changed ? "restored" : "not archived:"} ${short(id)}`;
}

export async function resume(store: ProjectStore, id: string): Promise<string> {
  const r = await resumeSession(store, id, {});
  return `resumed ${short(id)}${r.ready ? "" : " (not ready yet)"}`;
}

/** `resume --all` here: one line of totals, the first refusal's code beside them. */
export async function resumeAll(store: ProjectStore): Promise<string> {
  const r = await resumeFleet([store]);
  const s = r.summary;
  if (s.selected === 0) return "resume --all: no session's agent died (sessions you stopped stay stopped)";
  const failed = r.entries.find((e) => e.outcome === "failed");
  // The footer has one line: the first refusal's code; the CLI's plan has every message.
  return oneLine(`resume --all: launched ${s.launched}, queued ${s.queued}${s.failed ? `, failed ${s.failed} (${short(failed!.id)}: ${failed!.error?.code ?? "error"}; spex session resume --all --dry-run says why)` : ""}`);
}

/** What a forced close would throw away, from the facts close itself gathers; a close that would refuse even forced says why. */
export function closeDiscards(store: ProjectStore, id: string): CloseDiscards {
  const reading = readSession(store, id);
  if (reading.kind === "absent") throw new SpexError("record_absent", `session ${short(id)} is gone`, { hint: "it was closed meanwhile" });
  if (reading.kind === "corrupt") return { files: [], commits: [], moreCommits: false, refusal: "" };
  try {
    const plan = planClose(id, gatherCloseFacts(store, reading.record, reading.retired), true);
    return {
      files: plan.discards.files.map(printable),
      commits: plan.discards.commits.map((c) => printable(`${c.sha.slice(0, 10)} ${c.subject}`)),
      moreCommits: plan.discards.moreCommits,
      refusal: "",
    };
  } catch (e) {
    if (e instanceof SpexError) return { files: [], commits: [], moreCommits: false, refusal: printable(e.message) };
    throw e;
  }
}

export async function close(store: ProjectStore, id: string, force: boolean): Promise<string> {
  const r = await closeSession(store, id, { force });
  return oneLine(describeClose(r));
}

export async function create(store: ProjectStore, form: NewSessionForm): Promise<string> {
  const caller = process.env.SPEX_SESSION_ID;
  const { result } = await newSession(store, {
    prompt: form.prompt,
    launcher: form.launcher || undefined,
    base: form.base || undefined,
    group: form.group === "" ? undefined : form.group,
    creator: caller && isSessionId(caller) ? caller : undefined,
  });
  const state = result.queuePosition !== null ? `queued #${result.queuePosition}` : result.ready ? "running" : "starting";
  return `created ${short(result.record.session_id)} (${state})`;
}

/** A shell in the session's worktree (`spex terminal new --session`), and where it runs, to attach to it. */
export async function terminal(store: ProjectStore, id: string): Promise<{ message: string; socket: string; session: string }> {
  const session = resolveSelector(store, id).id;
  const t = await newTerminal(store, { session });
  return { message: printable(`opened terminal ${short(t.terminal_id)} (${t.name}) in ${t.directory}`), socket: t.tmux_socket, session: t.tmux_session };
}
