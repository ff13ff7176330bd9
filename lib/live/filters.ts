// Option text → filters, with usage errors that name what is allowed.
import { SpexError } from "../errors";
import { LIVE_STATUSES, type LiveStatus, isLiveStatus } from "./types";

export function parseStatuses(text: string | undefined): LiveStatus[] {
  if (text === undefined) return [];
  const wanted = text.split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = wanted.filter((w) => !isLiveStatus(w));
  if (unknown.length > 0) {
    throw new SpexError("usage", `unknown status ${unknown.join(", ")}`, { hint: `use any of ${LIVE_STATUSES.join(", ")}`, exitCode: 2 });
  }
  return [...new Set(wanted)] as LiveStatus[];
}
