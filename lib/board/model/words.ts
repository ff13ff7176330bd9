// The order the header counts statuses in.

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
