// Words shared by the board's pieces: the order statuses are counted in, and
// how long ago something happened, in a few cells.

/** Display statuses in the order the header counts them: what needs a person first. */
export const DISPLAY_ORDER: string[] = [
  "asking",
  "error",
  "corrupt",
  "unreadable",
  "review",
  "done",
  "close-pending",
  "working",
  "starting",
  "idle",
  "parked",
  "queued",
  "offline",
  "retired",
];

/** `12s`, `5m`, `3h`, `4d`: the age of an ISO time at `now` ("" when unknown). */
export function ageOf(iso: string, now: number): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return "";
  const s = Math.max(0, Math.floor((now - t) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}
