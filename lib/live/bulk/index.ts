// One bulk run: observe (prefiltered), plan, and run the queue when the plan
// allows execution.
import { serverOf } from "../../tmux";
import { type ObserveOptions, observeLive, screenKey } from "../observe";
import { projectMatcher, projectSlugOf, sameMachine } from "../project";
import type { GovernedSession } from "../governed";
import type { LiveObservation } from "../observe";
import type { LiveRow } from "../types";
import { findingsOf } from "./doctor";
import { sessionExecutor } from "./execute";
import { type HostLoad, hostLoad } from "./guard";
import { type BulkRequest, planBulk } from "./plan";
import { type BulkExecutor, runQueued } from "./run";
import type { BulkEnvelope } from "./types";

export * from "./types";
export { type GuardLimits, type HostLoad, computeGuard, hostLoad, isActiveAgent } from "./guard";
export { type BulkRequest, type PlanInput, planBulk, argvFor } from "./plan";
export { type BulkExecutor, type ExecutorResult, runQueued } from "./run";
export { type SessionOps, realSessionOps, sessionExecutor } from "./execute";
export { findingsOf } from "./doctor";

export interface BulkRunOptions {
  observe?: ObserveOptions;
  executor?: BulkExecutor;
  load?: HostLoad;
  random?(): number;
  sleep?(ms: number): Promise<void>;
}

/** Open sessions with no pane anywhere we looked: what ensure and start bring back. */
function stoppedSessionRows(obs: LiveObservation, request: BulkRequest): LiveRow[] {
  if (request.machine !== null && !sameMachine(request.machine, obs.machine)) return [];
  const withPane = new Set(obs.candidates.map((r) => r.sessionId).filter(Boolean));
  const rows: LiveRow[] = [];
  for (const s of obs.governed.sessions) {
    if (s.record.archived || s.retired || withPane.has(s.id)) continue;
    if (s.record.tmux_session && !obs.servers.includes(serverOf(s.record.tmux_socket))) continue;
    const projectPath = s.record.project_root;
    rows.push({
      target: s.record.tmux_session || s.id.slice(0, 8),
      session: s.record.tmux_session,
      windowIndex: "",
      paneIndex: "",
      paneId: "",
      command: "",
      cwd: s.record.worktree_path || null,
      projectPath,
      projectSlug: projectSlugOf(projectPath, s.record.tmux_session),
      machine: obs.machine,
      title: s.record.title,
      status: "dead",
      statusReason: "no tmux pane: the session is not running",
      paneDead: false,
      paneActive: false,
      lastVisibleLine: null,
      isOpenSession: true,
      socket: serverOf(s.record.tmux_socket),
      sessionId: s.id,
      harness: s.record.harness || null,
      statusRule: "governed.no-pane",
    });
  }
  return rows;
}

export async function runBulk(request: BulkRequest, opts: BulkRunOptions = {}): Promise<BulkEnvelope> {
  const obs = await observeLive(
    { openOnly: request.openOnly, project: request.project ?? undefined, machine: request.machine ?? undefined, statuses: request.statuses },
    opts.observe,
  );
  let selected = obs.rows;
  if (request.action === "ensure" || request.action === "start") {
    let stopped = stoppedSessionRows(obs, request);
    if (request.project) {
      const want = projectMatcher(request.project);
      stopped = stopped.filter((r) => want(r.projectPath, r.projectSlug));
    }
    if (request.statuses.length > 0) stopped = stopped.filter((r) => request.statuses.includes(r.status));
    selected = [...selected, ...stopped];
  }
  const byId = new Map<string, GovernedSession>(obs.governed.sessions.map((s) => [s.id, s]));
  const envelope = planBulk({
    request,
    observedAt: obs.observedAt,
    candidates: obs.candidates,
    selected,
    load: opts.load ?? hostLoad(),
    executionAvailable: true,
    screenOf: (row) => obs.screens.get(screenKey(row.socket, row.paneId)) ?? "",
    findingsOf: (row) => findingsOf(row, row.sessionId ? byId.get(row.sessionId) : undefined),
    random: opts.random ?? Math.random,
  });
  if (envelope.executionEnabled) {
    await runQueued(envelope, opts.executor ?? sessionExecutor((id) => byId.get(id), request.statuses), { sleep: opts.sleep });
  }
  return envelope;
}
