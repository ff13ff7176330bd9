// The sessions.bulk.v1 envelope (seeds/000): field names, types and enums as
// the contract states them. Additive fields: socket, paneId, sessionId,
// statusReason, capture, findings, outcome; summary.succeeded/failed.
import type { LiveStatus } from "../types";

export const BULK_SCHEMA = "sessions.bulk.v1";
export const BULK_ACTIONS = ["status", "capture", "doctor", "ensure", "start", "stop", "restart"] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
export const READ_ONLY_ACTIONS = ["status", "capture", "doctor"] as const;
export type MutatingAction = "ensure" | "start" | "stop" | "restart";
export const BULK_DECISIONS = ["planned", "queued", "skipped", "refused"] as const;
export type BulkDecision = (typeof BULK_DECISIONS)[number];
/** none: nothing executes; local: the local queue runs it (bounded, or one at a time with --no-queue). */
export type EntryQueue = "none" | "local";

export function isBulkAction(v: string): v is BulkAction {
  return (BULK_ACTIONS as readonly string[]).includes(v);
}

export function isMutating(action: BulkAction): action is MutatingAction {
  return !(READ_ONLY_ACTIONS as readonly string[]).includes(action);
}

export interface BulkOutcome {
  ok: boolean;
  /** done: the operation ran; failed: it threw; skipped: a re-check just before running declined it. */
  state: "done" | "failed" | "skipped";
  code: string | null;
  message: string;
  startedAt: string;
  finishedAt: string;
}

export interface BulkEntry {
  target: string;
  machine: string;
  projectSlug: string;
  projectPath: string | null;
  isOpenSession: boolean;
  status: LiveStatus;
  action: BulkAction;
  decision: BulkDecision;
  reason: string;
  scheduledDelayMs: number;
  queue: EntryQueue;
  /** Structured argv of the operation; what a runner executes (never commandPreview). */
  argv: string[] | null;
  /** Untrusted display text only. */
  commandPreview: string | null;
  /** Untrusted display text only. */
  lastVisibleLine: string | null;
  socket: string;
  paneId: string;
  sessionId: string | null;
  statusReason: string;
  /** bulk capture: the visible screen (untrusted display text). */
  capture?: string;
  /** bulk doctor: what looks wrong with this pane or session. */
  findings?: string[];
  /** Set once a queued entry has run. */
  outcome?: BulkOutcome;
}

export interface GuardHints {
  captureScope: "prefiltered";
  activeAgentCount: number;
  selectedCount: number;
  selectedMachineCount: number;
  selectedMachines: string[];
  load1: number;
  cpuCount: number;
  loadPerCore: number;
  maxActiveAgents: number;
  maxLoad1: number | null;
  maxLoadPerCore: number;
}

export interface BulkGuard {
  ok: boolean;
  reasons: string[];
  hints: GuardHints;
}

export interface BulkFiltersEcho {
  openOnly: boolean;
  /** null when --status was not given. */
  statuses: LiveStatus[] | null;
  project: string | null;
  machine: string | null;
}

export interface BulkSummary {
  totalPanes: number;
  selected: number;
  planned: number;
  queued: number;
  skipped: number;
  refused: number;
  /** Queued entries whose operation ran and succeeded / failed. */
  succeeded: number;
  failed: number;
}

export interface BulkEnvelope {
  schemaVersion: typeof BULK_SCHEMA;
  observedAt: string;
  action: BulkAction;
  dryRun: boolean;
  yes: boolean;
  queue: boolean;
  executionEnabled: boolean;
  concurrency: number;
  jitterMs: number;
  filters: BulkFiltersEcho;
  guard: BulkGuard;
  summary: BulkSummary;
  entries: BulkEntry[];
}
