// Stalls: an agent held up by its API (a rate or usage limit, a login or key
// it needs) while its row would otherwise read as working or idle. Reported
// by a hook where the harness has one (Claude Code's StopFailure names the
// error), else seen on the pane by the classifier's rules (lib/live/rules).
import { type RecordChange, updateRecord } from "../record";
import type { ProjectStore } from "../store";
import type { Stall } from "./events";

/** Claude Code's StopFailure `error` values that mean a person must act. */
export function stallOfHookError(error: unknown): Stall | undefined {
  if (typeof error !== "string") return undefined;
  if (error === "rate_limit") return "rate_limited";
  if (error === "authentication_failed" || error === "billing_error") return "auth_required";
  return undefined;
}

/**
 * Record a stall seen on a session's pane: lifecycle `error`, the stall and
 * why in the note, through the one writer. Only a running, undeclared session
 * that does not already stand stalled this way changes, so of two observers
 * (a wait, a live) that see the same screen, one writes it and notifies.
 */
export async function recordStall(store: ProjectStore, id: string, stall: Stall, why: string): Promise<RecordChange | undefined> {
  return updateRecord(
    store,
    id,
    (r, ctx) => {
      if (ctx.pending || ctx.retired || r.stopped || r.archived || r.declared !== "" || r.stall === stall) return undefined;
      return { ...r, status: "error", note: why, stall };
    },
    { reason: "state", purpose: `stall ${id}` },
  ).catch(() => undefined);
}
