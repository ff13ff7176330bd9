// `resume --budget-usd N` / `--budget-tokens N`: a new limit for a session's
// own budget. The once-only flags start over below the new thresholds; a
// session that was parked by its budget and whose agent still runs is put
// back at rest (idle), so what was queued for it is handed over; one whose
// agent is gone is relaunched by resume as usual.
import { SpexError } from "../errors";
import { publicRecord, readSession, recordLiveness, refuseUnusable, updateRecord } from "../record";
import type { ProjectStore } from "../store";
import { type Budget, type BudgetSpec, checkBudgetSpec, readBudget, writeBudget } from "./budget";
import { budgetState } from "./enforce";
import { BUDGET_NOTE } from "./events";
import { withLock } from "../lock";
import { join } from "node:path";
import { readAll } from "../sessions/rows";

export interface RaisedBudget {
  budget: Budget;
  /** Percent of the new limit spent. */
  percent: number;
  /** It was parked by its budget, its agent runs, and it is at rest again now. */
  unparked: boolean;
  /** Its agent is running (nothing to relaunch). */
  running: boolean;
}

export async function raiseBudget(store: ProjectStore, id: string, spec: BudgetSpec): Promise<RaisedBudget> {
  checkBudgetSpec(spec);
  if (spec.usd === undefined && spec.tokens === undefined) throw new SpexError("usage", "give --budget-usd or --budget-tokens", { exitCode: 2, httpStatus: 400 });
  const reading = readSession(store, id);
  refuseUnusable(reading);
  const { budget, percent } = await withLock(join(store.locksDir, `${id}.budget.lock`), () => {
    const old = readBudget(store, id);
    const next: Budget = {
      version: 1,
      usd: spec.usd ?? old?.usd ?? null,
      tokens: spec.tokens ?? old?.tokens ?? null,
      hard: spec.hard ?? old?.hard ?? false,
      scope: spec.scope ?? old?.scope ?? "session",
      source: "flag",
      warned: false,
      exceeded: false,
    };
    const all = () => {
      const m = new Map();
      for (const r of readAll(store)) if (r.kind === "ok") m.set(r.id, publicRecord(r.record, r.pending));
      return m;
    };
    const state = budgetState(store, id, next, all);
    // Already past a threshold of the new limit: that notice is not owed again.
    next.warned = state.percent >= 80;
    next.exceeded = state.percent >= 100;
    writeBudget(store, id, next);
    return { budget: next, percent: state.percent };
  });
  const view = publicRecord(reading.record, reading.pending);
  let unparked = false;
  const running = recordLiveness(view, reading.pending !== null) === "online";
  if (percent < 100 && view.status === "parked" && view.note === BUDGET_NOTE && running) {
    const change = await updateRecord(
      store,
      id,
      (r) => (r.status === "parked" && r.note === BUDGET_NOTE ? { ...r, status: "idle", note: "", declared: "" } : undefined),
      { reason: "state", purpose: `budget raised ${id}` },
    );
    unparked = change !== undefined;
  }
  return { budget, percent, unparked, running };
}
