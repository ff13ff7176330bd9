// The real executor: a queued entry runs through the same code as
// `spex session stop` and `spex session resume`. Just before it runs, the
// record is read again: a session that turned active (or started asking) since
// the plan, and whose status the caller did not select, is left alone.
import { publicRecord, readSession } from "../../record";
import { resumeSession } from "../../teardown/resume";
import { stopSession } from "../../teardown/stop";
import { type GovernedSession, LIFECYCLE_STATUS } from "../governed";
import type { LiveStatus } from "../types";
import type { BulkExecutor, ExecutorResult } from "./run";
import type { BulkEntry, MutatingAction } from "./types";

export interface SessionOps {
  stop(s: GovernedSession): Promise<string>;
  resume(s: GovernedSession, force: boolean): Promise<string>;
}

export const realSessionOps: SessionOps = {
  async stop(s) {
    const r = await stopSession(s.store, s.id);
    return `stopped (agent ${r.leaf}, tmux ${r.tmux})`;
  },
  async resume(s, force) {
    const r = await resumeSession(s.store, s.id, { force });
    return r.ready ? "resumed and ready" : "resumed (readiness not proven yet)";
  },
};

function recheck(s: GovernedSession, action: MutatingAction, selected: LiveStatus[]): ExecutorResult | undefined {
  const reading = readSession(s.store, s.id);
  if (reading.kind !== "ok") return { ok: false, state: "failed", code: reading.kind === "absent" ? "record_absent" : "record_corrupt", message: `the record is ${reading.kind} now` };
  if (action === "start" || action === "ensure") return undefined;
  const view = publicRecord(reading.record, reading.pending);
  const now = LIFECYCLE_STATUS[view.status];
  if ((now === "active" || now === "needs_attention") && !selected.includes(now)) {
    return { ok: false, state: "skipped", code: "status_changed", message: `the session became ${now} (${view.status}) since it was planned; left alone` };
  }
  return undefined;
}

export function sessionExecutor(lookup: (id: string) => GovernedSession | undefined, selected: LiveStatus[], ops: SessionOps = realSessionOps): BulkExecutor {
  return async (action: MutatingAction, entry: BulkEntry): Promise<ExecutorResult> => {
    const s = entry.sessionId ? lookup(entry.sessionId) : undefined;
    if (!s) return { ok: false, state: "failed", code: "record_absent", message: "no spex session owns this entry" };
    const declined = recheck(s, action, selected);
    if (declined) return declined;
    if (action === "stop") return { ok: true, message: await ops.stop(s) };
    if (action === "restart") return { ok: true, message: await ops.resume(s, true) };
    return { ok: true, message: await ops.resume(s, false) };
  };
}
