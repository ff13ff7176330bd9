// The bulk planner, pure: every selected pane gets a decision and a reason.
// Mutating actions need --yes unless --dry-run, act only on spex sessions,
// refuse active or needs_attention panes the caller did not select by status,
// and refuse everything while the guard is exceeded.
import type { LiveRow, LiveStatus } from "../types";
import { commandLine } from "../../tmux/quote";
import { type GuardLimits, type HostLoad, computeGuard } from "./guard";
import {
  BULK_SCHEMA,
  type BulkAction,
  type BulkDecision,
  type BulkEntry,
  type BulkEnvelope,
  type MutatingAction,
  isMutating,
} from "./types";

export interface BulkRequest {
  action: BulkAction;
  dryRun: boolean;
  yes: boolean;
  queue: boolean;
  concurrency: number;
  jitterMs: number;
  openOnly: boolean;
  statuses: LiveStatus[];
  project: string | null;
  machine: string | null;
  limits: GuardLimits;
}

export interface PlanInput {
  request: BulkRequest;
  observedAt: string;
  /** Panes that passed the pre-capture filters (the guard's scope). */
  candidates: LiveRow[];
  /** What the action applies to: candidates after the status filter, plus stopped sessions for ensure/start. */
  selected: LiveRow[];
  load: HostLoad;
  /** False while this build has no executor for mutating actions. */
  executionAvailable: boolean;
  screenOf(row: LiveRow): string;
  findingsOf(row: LiveRow): string[];
  /** A number in [0, 1) for jitter; injected so plans are reproducible in tests. */
  random(): number;
}

const VERB: Record<MutatingAction, string> = { ensure: "resume", start: "resume", stop: "stop", restart: "restart" };

/** The spex command an action amounts to (restart is resume --force: stop, then relaunch). */
export function argvFor(action: MutatingAction, id: string): string[] {
  if (action === "stop") return ["spex", "session", "stop", id];
  if (action === "restart") return ["spex", "session", "resume", "--force", id];
  return ["spex", "session", "resume", id];
}

interface Verdict {
  decision: BulkDecision;
  reason: string;
}

function mutatingVerdict(row: LiveRow, input: PlanInput, guardReasons: string[]): Verdict {
  const { request } = input;
  const action = request.action as MutatingAction;
  if (!row.sessionId) return { decision: "skipped", reason: `spex does not govern this pane; bulk ${action} acts only on spex sessions` };
  if (!row.isOpenSession) return { decision: "skipped", reason: "the session is archived" };
  const running = row.paneId !== "" && !row.paneDead;
  if ((action === "start" || action === "ensure") && running) return { decision: "skipped", reason: "already running" };
  if ((row.status === "active" || row.status === "needs_attention") && !request.statuses.includes(row.status)) {
    return { decision: "refused", reason: `the pane is ${row.status}; select it explicitly with --status ${row.status} to include it` };
  }
  if (guardReasons.length > 0) return { decision: "refused", reason: `guard: ${guardReasons.join("; ")}` };
  const what = `${VERB[action]} session ${row.sessionId.slice(0, 8)}`;
  if (request.dryRun) return { decision: "planned", reason: `would ${what} (dry run)` };
  // Said once for the whole run (the CLI's stderr line), not on every row.
  if (!request.yes) return { decision: "refused", reason: `not confirmed: would ${what}` };
  if (!input.executionAvailable) return { decision: "refused", reason: `this build cannot run bulk ${action} yet; plan with --dry-run` };
  return { decision: "queued", reason: `queued: ${what}` };
}

export function planBulk(input: PlanInput): BulkEnvelope {
  const { request } = input;
  const mutating = isMutating(request.action);
  const guard = computeGuard(input.candidates, input.selected, request.limits, input.load);
  const entries: BulkEntry[] = input.selected.map((row) => {
    const verdict: Verdict = mutating
      ? mutatingVerdict(row, input, guard.reasons)
      : { decision: "planned", reason: "read-only bulk check" };
    const acts = mutating && (verdict.decision === "planned" || verdict.decision === "queued") && row.sessionId;
    const argv = acts ? argvFor(request.action as MutatingAction, row.sessionId!) : null;
    const entry: BulkEntry = {
      target: row.target,
      machine: row.machine,
      projectSlug: row.projectSlug,
      projectPath: row.projectPath,
      isOpenSession: row.isOpenSession,
      status: row.status,
      action: request.action,
      decision: verdict.decision,
      reason: verdict.reason,
      scheduledDelayMs: acts && request.queue && request.jitterMs > 0 ? Math.floor(input.random() * request.jitterMs) : 0,
      queue: verdict.decision === "queued" ? "local" : "none",
      argv,
      commandPreview: argv ? commandLine(argv) : null,
      lastVisibleLine: row.lastVisibleLine,
      socket: row.socket,
      paneId: row.paneId,
      sessionId: row.sessionId,
      statusReason: row.statusReason,
    };
    if (request.action === "capture") entry.capture = input.screenOf(row);
    if (request.action === "doctor") entry.findings = input.findingsOf(row);
    return entry;
  });
  const count = (d: BulkDecision) => entries.filter((e) => e.decision === d).length;
  return {
    schemaVersion: BULK_SCHEMA,
    observedAt: input.observedAt,
    action: request.action,
    dryRun: request.dryRun || !mutating,
    yes: request.yes,
    queue: request.queue,
    executionEnabled: mutating && !request.dryRun && request.yes && guard.ok && input.executionAvailable,
    concurrency: request.concurrency,
    jitterMs: request.jitterMs,
    filters: { openOnly: request.openOnly, statuses: request.statuses.length > 0 ? request.statuses : null, project: request.project, machine: request.machine },
    guard,
    summary: {
      totalPanes: input.candidates.length,
      selected: entries.length,
      planned: count("planned"),
      queued: count("queued"),
      skipped: count("skipped"),
      refused: count("refused"),
      succeeded: 0,
      failed: 0,
    },
    entries,
  };
}
