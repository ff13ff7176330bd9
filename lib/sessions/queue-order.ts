// The launch queue's order (issue 13 item 4): queued sessions launch oldest
// first. Creates are serialized by the project lock and stamp createdAt inside
// it, so creation time is queue order; the id breaks a tie of the same
// millisecond the same way for every reader.
import type { RecordReading } from "../record";

type OkReading = Extract<RecordReading, { kind: "ok" }>;

/** Waiting in the queue: lifecycle `queued`, no launch under way, not archived, worktree still there. */
export function isQueued(reading: RecordReading): reading is OkReading {
  return reading.kind === "ok" && reading.record.status === "queued" && !reading.pending && !reading.record.archived && !reading.retired;
}

/** The queued readings, first to launch first. */
export function launchQueue(readings: readonly RecordReading[]): OkReading[] {
  return readings.filter(isQueued).sort((a, b) => {
    const ta = a.record.createdAt;
    const tb = b.record.createdAt;
    return ta === tb ? a.id.localeCompare(b.id) : ta < tb ? -1 : 1;
  });
}

/** Session id → place in the queue (1 launches next). */
export function queuePositions(readings: readonly RecordReading[]): Map<string, number> {
  return new Map(launchQueue(readings).map((r, i) => [r.id, i + 1]));
}
