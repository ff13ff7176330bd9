// Derived display status (DESIGN.md §3): never stored, always recomputed from
// lifecycle, proposal and liveness.
import { probeLeafShown } from "../proc";
import type { RecordReading } from "./file";
import { publicRecord } from "./file";
import type { SessionRecord } from "./schema";

export type Liveness = "online" | "offline" | "unknown";

export const DISPLAY_STATUSES = [
  "starting",
  "working",
  "idle",
  "asking",
  "parked",
  "error",
  "queued",
  "review",
  "done",
  "close-pending",
  "setup_failed",
  "offline",
  "corrupt",
  "unreadable",
  "retired",
] as const;
export type DisplayStatus = (typeof DISPLAY_STATUSES)[number];

/** Online when the recorded agent pid is alive with its recorded start identity. */
export function recordLiveness(record: SessionRecord, fenced: boolean): Liveness {
  if (fenced) return "offline"; // pinned offline while the readiness fence is up
  if (record.stopped || !record.agent_pid) return "offline";
  // Shown only: a listing of a fleet asks the process table once (lib/proc).
  return probeLeafShown(record.agent_pid, record.agent_start) === "owned" ? "online" : "offline";
}

export function displayStatus(reading: RecordReading, liveness: Liveness): DisplayStatus {
  if (reading.kind !== "ok") return reading.kind === "corrupt" && reading.unreadable ? "unreadable" : "corrupt";
  if (reading.retired) return "retired";
  if (reading.pending) return "starting";
  const view = publicRecord(reading.record, reading.pending);
  if (view.proposal === "merge") return "review";
  if (view.proposal === "close") return "close-pending";
  if (view.proposal === "nothing") return "done";
  if (view.status === "queued") return "queued";
  // Its setup failed and the agent never started (lib/workspace): resume runs the setup again.
  if (view.setup === "failed" && liveness !== "online") return "setup_failed";
  if (liveness !== "online") return "offline";
  switch (view.status) {
    case "active":
      return "working";
    case "idle":
    case "awaiting":
      return "idle";
    default:
      return view.status;
  }
}
