// The live/bulk JSON contract of seeds/000 as a TypeScript consumer of the
// reference implementation types it: the seed's field list, with unknown
// folders and lines as null, guard limits as numbers, and entry queues as
// none | local. test/integration/live-contract-types.test.ts type-checks real
// `live --json` and `bulk … --json` output against these with tsc. Written
// for spex from the seed; only the fields a consumer relies on appear (extra
// fields in the output are allowed).

export type LivePaneStatus = "active" | "idle" | "needs_attention" | "dead";

export interface LivePane {
  target: string;
  session: string;
  windowIndex: string;
  paneIndex: string;
  paneId: string;
  command: string;
  cwd: string | null;
  projectPath: string | null;
  projectSlug: string;
  machine: string;
  title: string;
  status: LivePaneStatus;
  statusReason: string;
  paneDead: boolean;
  paneActive: boolean;
  lastVisibleLine: string | null;
  isOpenSession: boolean;
}

export type BulkAction = "status" | "capture" | "doctor" | "ensure" | "start" | "stop" | "restart";
export type BulkDecision = "planned" | "queued" | "skipped" | "refused";

export interface BulkEntry {
  target: string;
  machine: string;
  projectSlug: string;
  projectPath: string | null;
  isOpenSession: boolean;
  status: LivePaneStatus;
  action: BulkAction;
  decision: BulkDecision;
  reason: string;
  scheduledDelayMs: number;
  queue: "none" | "local";
  argv: string[] | null;
  commandPreview: string | null;
  lastVisibleLine: string | null;
}

export interface BulkGuardHints {
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

export interface BulkEnvelope {
  schemaVersion: "sessions.bulk.v1";
  observedAt: string;
  action: BulkAction;
  dryRun: boolean;
  yes: boolean;
  queue: boolean;
  executionEnabled: boolean;
  concurrency: number;
  jitterMs: number;
  filters: {
    openOnly: boolean;
    statuses: LivePaneStatus[] | null;
    project: string | null;
    machine: string | null;
  };
  guard: { ok: boolean; reasons: string[]; hints: BulkGuardHints };
  summary: {
    totalPanes: number;
    selected: number;
    planned: number;
    queued: number;
    skipped: number;
    refused: number;
  };
  entries: BulkEntry[];
}
