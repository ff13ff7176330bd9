// `bulk` over several machines: each machine plans (and, confirmed, runs) its
// own panes with its own guard, and the answers merge into one
// `sessions.bulk.v1` envelope. Read-only work and dry runs ask the machines in
// parallel; a confirmed mutation runs on one machine at a time, in order (seed
// 000). A machine that does not answer is one refused entry.
import { BULK_SCHEMA, type BulkEntry, type BulkEnvelope, type BulkRequest, type GuardHints, isMutating } from "../live/bulk";
import { SpexError } from "../errors";
import { commandLine } from "../tmux/quote";
import type { Machine } from "./list";
import { type FleetError, type FleetTarget, askFleet, remoteRefusal } from "./fleet";
import { parseRemoteJson, runSpexOn } from "./remote";

/** The bulk flags the user typed, passed on as typed so each machine's own spexcode.json fills the rest. */
export interface BulkFlags {
  openOnly: boolean;
  project?: string;
  status?: string;
  dryRun: boolean;
  yes: boolean;
  queue: boolean;
  concurrency?: number;
  jitter?: number;
  maxActiveAgents?: number;
  maxLoad1?: number | "none";
  maxLoadPerCore?: number;
}

export function remoteBulkArgv(action: string, f: BulkFlags): string[] {
  const value = (flag: string, v: number | string | undefined) => (v === undefined ? [] : [flag, String(v)]);
  return [
    "session", "bulk", action, "--json",
    ...(f.openOnly ? ["--open-only"] : []),
    ...value("--project", f.project),
    ...value("--status", f.status),
    ...(f.dryRun ? ["--dry-run"] : []),
    ...(f.yes ? ["--yes"] : []),
    ...(f.queue ? [] : ["--no-queue"]),
    ...value("--concurrency", f.concurrency),
    ...value("--jitter", f.jitter),
    ...value("--max-active-agents", f.maxActiveAgents),
    ...value("--max-load1", f.maxLoad1),
    ...value("--max-load-per-core", f.maxLoadPerCore),
  ];
}

export async function remoteBulk(machine: Machine, action: string, flags: BulkFlags): Promise<BulkEnvelope> {
  const answer = parseRemoteJson(machine, await runSpexOn(machine, remoteBulkArgv(action, flags)));
  const refusal = remoteRefusal(machine, answer);
  if (refusal) throw refusal;
  if ((answer as BulkEnvelope | null)?.schemaVersion !== BULK_SCHEMA) {
    throw new SpexError("machine_answer_invalid", `machine ${machine.name} did not answer with a ${BULK_SCHEMA} envelope`, { hint: "compare versions with `spex machine ls`" });
  }
  return answer as BulkEnvelope;
}

/** A remote entry's argv, runnable from here: the same verb with `--machine` (and the project as `--repo`). */
export function addressArgv(argv: string[] | null, machine: string, projectPath: string | null): string[] | null {
  if (!argv) return null;
  const at = argv.indexOf("session") + 2;
  if (at < 2) return argv;
  return [...argv.slice(0, at), "--machine", machine, ...(projectPath ? ["--repo", projectPath] : []), ...argv.slice(at)];
}

function errorEntry(request: BulkRequest, e: FleetError): BulkEntry & { error: FleetError["error"] } {
  return {
    target: "",
    machine: e.machine,
    projectSlug: "",
    projectPath: null,
    isOpenSession: false,
    status: "dead",
    action: request.action,
    decision: "refused",
    reason: `${e.error.code}: ${e.error.message}`,
    scheduledDelayMs: 0,
    queue: "none",
    argv: null,
    commandPreview: null,
    lastVisibleLine: null,
    socket: "",
    paneId: "",
    sessionId: null,
    statusReason: "the machine did not answer",
    error: e.error,
  };
}

export interface FleetMachineReport {
  machine: string;
  ok: boolean;
  error: FleetError["error"] | null;
  guard: BulkEnvelope["guard"] | null;
  summary: BulkEnvelope["summary"] | null;
}

export type FleetBulkEnvelope = BulkEnvelope & { machines: FleetMachineReport[] };

/** Merge per-machine envelopes (pure): sums, reasons named by machine, the most loaded machine's load figures. */
export function mergeEnvelopes(request: BulkRequest, observedAt: string, answers: Array<{ target: FleetTarget; value?: BulkEnvelope; error?: FleetError }>): FleetBulkEnvelope {
  const ok = answers.filter((a): a is { target: FleetTarget; value: BulkEnvelope } => a.value !== undefined);
  const errors = answers.flatMap((a) => (a.error ? [a.error] : []));
  const entries: BulkEntry[] = [];
  for (const a of ok) {
    const remote = a.target.kind === "remote";
    for (const e of a.value.entries) {
      const argv = remote ? addressArgv(e.argv, a.target.name, e.projectPath) : e.argv;
      entries.push({ ...e, machine: a.target.name, argv, commandPreview: argv ? commandLine(argv) : e.commandPreview });
    }
  }
  entries.push(...errors.map((e) => errorEntry(request, e)));
  const hints = ok.map((a) => a.value.guard.hints);
  const busiest = hints.reduce<GuardHints | undefined>((b, h) => (!b || h.loadPerCore > b.loadPerCore ? h : b), undefined);
  const selectedMachines = [...new Set(entries.filter((e) => e.target !== "").map((e) => e.machine))].sort();
  const sum = (f: (s: BulkEnvelope["summary"]) => number) => ok.reduce((n, a) => n + f(a.value.summary), 0);
  return {
    schemaVersion: BULK_SCHEMA,
    observedAt,
    action: request.action,
    dryRun: request.dryRun || !isMutating(request.action),
    yes: request.yes,
    queue: request.queue,
    executionEnabled: ok.some((a) => a.value.executionEnabled),
    concurrency: request.concurrency,
    jitterMs: request.jitterMs,
    filters: { openOnly: request.openOnly, statuses: request.statuses.length > 0 ? request.statuses : null, project: request.project, machine: request.machine },
    guard: {
      ok: ok.every((a) => a.value.guard.ok),
      reasons: ok.flatMap((a) => a.value.guard.reasons.map((r) => `${a.target.name}: ${r}`)),
      hints: {
        captureScope: "prefiltered",
        activeAgentCount: hints.reduce((n, h) => n + h.activeAgentCount, 0),
        selectedCount: hints.reduce((n, h) => n + h.selectedCount, 0),
        selectedMachineCount: selectedMachines.length,
        selectedMachines,
        load1: busiest?.load1 ?? 0,
        cpuCount: busiest?.cpuCount ?? 0,
        loadPerCore: busiest?.loadPerCore ?? 0,
        maxActiveAgents: request.limits.maxActiveAgents,
        maxLoad1: request.limits.maxLoad1,
        maxLoadPerCore: request.limits.maxLoadPerCore,
      },
    },
    summary: {
      totalPanes: sum((s) => s.totalPanes),
      selected: sum((s) => s.selected),
      planned: sum((s) => s.planned),
      queued: sum((s) => s.queued),
      skipped: sum((s) => s.skipped),
      refused: sum((s) => s.refused) + errors.length,
      succeeded: sum((s) => s.succeeded),
      failed: sum((s) => s.failed),
    },
    entries,
    machines: answers.map((a) => ({
      machine: a.target.name,
      ok: a.value !== undefined,
      error: a.error?.error ?? null,
      guard: a.value?.guard ?? null,
      summary: a.value?.summary ?? null,
    })),
  };
}

export async function runFleetBulk(targets: FleetTarget[], request: BulkRequest, flags: BulkFlags, local: () => Promise<BulkEnvelope>): Promise<FleetBulkEnvelope> {
  const observedAt = new Date().toISOString();
  // A confirmed mutation: one machine at a time, each finishing before the next starts.
  const sequential = isMutating(request.action) && request.yes && !request.dryRun;
  const answers = await askFleet(targets, local, (m) => remoteBulk(m, request.action, flags), sequential);
  return mergeEnvelopes(request, observedAt, answers);
}

/** The machines of a merged envelope that did not answer. */
export function unanswered(env: FleetBulkEnvelope): FleetError[] {
  return env.machines.flatMap((m) => (m.error ? [{ machine: m.machine, error: m.error }] : []));
}
