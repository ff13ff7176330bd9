// The bulk guard: how many agents are already working and how loaded the
// machine is, against the configured limits. Read-only actions report the
// reasons as warnings; mutating actions refuse on them.
import { availableParallelism, loadavg } from "node:os";
import type { LiveRow } from "../types";
import type { BulkGuard } from "./types";

export interface GuardLimits {
  maxActiveAgents: number;
  /** null: no limit on the 1-minute load average. */
  maxLoad1: number | null;
  maxLoadPerCore: number;
}

export interface HostLoad {
  load1: number;
  cpuCount: number;
}

export function hostLoad(): HostLoad {
  return { load1: loadavg()[0] ?? 0, cpuCount: Math.max(1, availableParallelism()) };
}

/** An agent counts as active when it is working: a spex session, or a pane running a known agent CLI. */
export function isActiveAgent(row: LiveRow): boolean {
  return row.status === "active" && (row.sessionId !== null || row.harness !== null);
}

const round = (n: number) => Math.round(n * 100) / 100;

export function computeGuard(candidates: LiveRow[], selected: LiveRow[], limits: GuardLimits, load: HostLoad): BulkGuard {
  const activeAgentCount = candidates.filter(isActiveAgent).length;
  const selectedMachines = [...new Set(selected.map((r) => r.machine))].sort();
  const loadPerCore = round(load.load1 / load.cpuCount);
  const reasons: string[] = [];
  if (activeAgentCount > limits.maxActiveAgents) {
    reasons.push(`${activeAgentCount} active agents exceed the limit of ${limits.maxActiveAgents} (--max-active-agents)`);
  }
  if (limits.maxLoad1 !== null && load.load1 > limits.maxLoad1) {
    reasons.push(`load average ${round(load.load1)} exceeds ${limits.maxLoad1} (--max-load1)`);
  }
  if (loadPerCore > limits.maxLoadPerCore) {
    reasons.push(`load per core ${loadPerCore} exceeds ${limits.maxLoadPerCore} (--max-load-per-core)`);
  }
  if (selectedMachines.length > 1) {
    reasons.push(`the selection spans ${selectedMachines.length} machines; bulk actions run on one machine at a time`);
  }
  return {
    ok: reasons.length === 0,
    reasons,
    hints: {
      captureScope: "prefiltered",
      activeAgentCount,
      selectedCount: selected.length,
      selectedMachineCount: selectedMachines.length,
      selectedMachines,
      load1: round(load.load1),
      cpuCount: load.cpuCount,
      loadPerCore,
      maxActiveAgents: limits.maxActiveAgents,
      maxLoad1: limits.maxLoad1,
      maxLoadPerCore: limits.maxLoadPerCore,
    },
  };
}
