// Looking at panes for stalls no hook reports: Codex after its retries of a
// 429 and Gemini CLI's quota dialog fire no hook at all, and Claude Code
// retrying a 429 for minutes still reads as working. A caller that is
// watching sessions anyway (`wait`, `live`) asks here: one tmux process per
// server lists the panes and captures the sessions' screens, the harness's
// stall rules read them, and a stall found is recorded through the writer.
import { type LiveObservation, classifyPane, ruleSetFor, unrecordedStalls } from "../live";
import { publicRecord, readSession } from "../record";
import type { ProjectStore } from "../store";
import { listAndCapture, sessionPaneTarget, serverOf } from "../tmux";
import { recordStall } from "./stall";

const AGENTS = new Set(["claude", "codex", "gemini"]);

/** Probe the screens of these sessions; the ids a stall was newly recorded for. */
export async function probeStalls(store: ProjectStore, ids: string[]): Promise<string[]> {
  const bySocket = new Map<string, { id: string; tmux: string; harness: string; lifecycle: string; stall?: string }[]>();
  for (const id of ids) {
    const reading = readSession(store, id);
    if (reading.kind !== "ok" || reading.pending || reading.retired) continue;
    const r = publicRecord(reading.record, reading.pending);
    if (r.stopped || r.archived || !r.tmux_session || !AGENTS.has(r.harness) || r.stall) continue;
    const socket = serverOf(r.tmux_socket);
    bySocket.set(socket, [...(bySocket.get(socket) ?? []), { id, tmux: r.tmux_session, harness: r.harness, lifecycle: r.status, stall: r.stall }]);
  }
  const found: string[] = [];
  for (const [socket, sessions] of bySocket) {
    let capture;
    try {
      capture = listAndCapture(socket || "default", ["list-panes", "-a", "-F", "#{session_name}\t#{pane_id}"], sessions.map((s) => sessionPaneTarget(s.tmux)));
    } catch {
      continue; // tmux is not there: nothing to see
    }
    if (!capture.ok) continue;
    const paneOf = new Map<string, string>();
    for (const line of (capture.prelude ?? "").split("\n")) {
      const tab = line.lastIndexOf("\t");
      if (tab > 0 && !paneOf.has(line.slice(0, tab))) paneOf.set(line.slice(0, tab), line.slice(tab + 1));
    }
    for (const s of sessions) {
      const pane = paneOf.get(s.tmux);
      const screen = pane ? capture.screens.get(pane) : undefined;
      if (screen === undefined) continue;
      const verdict = classifyPane({ paneDead: false, command: s.harness, screen, ruleSet: ruleSetFor(s.harness), governed: { lifecycle: s.lifecycle as never } });
      if (!verdict.stall) continue;
      if (await recordStall(store, s.id, verdict.stall, verdict.reason)) found.push(s.id);
    }
  }
  return found;
}

/** What `live` saw: a stall on the pane of a session whose record does not say so yet is recorded (and notified) now. */
export async function recordObservedStalls(obs: Pick<LiveObservation, "candidates" | "governed">): Promise<string[]> {
  const found: string[] = [];
  for (const { row, session: g } of unrecordedStalls(obs)) {
    if (await recordStall(g.store, g.id, row.stall!, row.statusReason)) found.push(g.id);
  }
  return found;
}
