// `spex session ls` as a function: the rows the CLI prints with --json and the
// MCP tool session_list answers, with the same filters and refusals.
import { SpexError } from "../errors";
import { recoverAbandonedCreates } from "../create/receipt";
import { listRowsSettled } from "../launch/stale";
import { DISPLAY_STATUSES } from "../record";
import { type ListRow, listRows, matchSelector, readAll } from "../sessions";
import { drainLaunchQueue } from "../create/launch-queue";
import type { ProjectStore } from "../store";

export interface SessionFilter {
  /** Only these sessions (any selector); archived ones included. */
  selectors?: string[];
  /** Archived sessions too (ignored with selectors, which always show what they name). */
  all?: boolean;
  /** Display statuses or lifecycles to keep. */
  status?: string[];
}

export interface SessionListing {
  rows: ListRow[];
  /** Archived rows left out (no --all, no selectors) that the status filter would have kept. */
  hiddenArchived: number;
  /** Creates killed mid-way that could not be rolled back (`receipt_stuck`), queued sessions whose launch failed: reported, never fatal. */
  warnings: SpexError[];
}

/** Every status word `--status` takes: the display statuses and the two lifecycles they fold. */
export const STATUS_WORDS: readonly string[] = [...DISPLAY_STATUSES, "active", "awaiting"];

function refuseUnknownStatus(wanted: string[]): void {
  const unknown = wanted.filter((w) => !STATUS_WORDS.includes(w));
  if (unknown.length > 0) {
    throw new SpexError("usage", `unknown status ${unknown.join(", ")}`, { hint: `use any of ${STATUS_WORDS.join(", ")}`, exitCode: 2, httpStatus: 400 });
  }
}

export async function listSessions(store: ProjectStore, filter: SessionFilter = {}): Promise<SessionListing> {
  if (filter.status !== undefined) refuseUnknownStatus(filter.status);
  // The next spex command after a create killed mid-way rolls it back.
  const { stuck } = await recoverAbandonedCreates(store);
  // A launch that died waiting for readiness shows its original again.
  let rows = await listRowsSettled(store);
  // A listing drives the launch queue too: a slot freed with nobody to drain it (an agent that died) is used now.
  const drain = await drainLaunchQueue(store, { force: rows.some((r) => r.display === "queued") });
  if (drain.launched.length > 0 || drain.failed.length > 0) rows = listRows(store);
  if (filter.status !== undefined) {
    const wanted = filter.status;
    rows = rows.filter((r) => wanted.includes(r.display) || (r.kind === "ok" && wanted.includes(r.lifecycle)));
  }
  let hiddenArchived = 0;
  if (filter.selectors && filter.selectors.length > 0) {
    const readings = readAll(store);
    const wanted = new Set(filter.selectors.map((s) => matchSelector(readings, s).id));
    rows = rows.filter((r) => wanted.has(r.id));
  } else if (!filter.all) {
    const shown = rows.filter((r) => r.kind === "corrupt" || !r.archived);
    hiddenArchived = rows.length - shown.length;
    rows = shown;
  }
  return { rows, hiddenArchived, warnings: [...stuck, ...drain.failed] };
}
