// `spex session resume` as a function, for the CLI and the backend alike: with
// a new budget (`--budget-usd` / `--budget-tokens`, or `budget` in the API's
// body) the limit is raised first; a running agent then needs no relaunch (a
// session its budget parked is put back at rest), and anything else is
// relaunched as a plain resume would (which refuses a budget still spent).
import type { BudgetSpec } from "../attention/budget";
import type { RaisedBudget } from "../attention/raise";
import type { ProjectStore } from "../store";
import { type ResumeOptions, type ResumeResult, resumeSession } from "../teardown";

export type ResumeAnswer = { kind: "raised"; id: string; raised: RaisedBudget } | { kind: "resumed"; id: string; result: ResumeResult; raised: RaisedBudget | null };

export async function resumeOrRaise(store: ProjectStore, id: string, opts: ResumeOptions & { budget?: Pick<BudgetSpec, "usd" | "tokens"> }): Promise<ResumeAnswer> {
  let raised: RaisedBudget | null = null;
  if (opts.budget && (opts.budget.usd !== undefined || opts.budget.tokens !== undefined)) {
    const { raiseBudget } = await import("../attention/raise");
    raised = await raiseBudget(store, id, { usd: opts.budget.usd, tokens: opts.budget.tokens });
    // A running agent needs no relaunch: the new limit is all there was to do (and the unpark, if its budget parked it).
    if (raised.running && !opts.force) return { kind: "raised", id, raised };
  }
  return { kind: "resumed", id, result: await resumeSession(store, id, opts), raised };
}

/** What a raise without a relaunch answers, in `--json` and over HTTP. */
export function raisedJson(id: string, raised: RaisedBudget): Record<string, unknown> {
  return { id, budget: raised.budget, percent: Math.floor(raised.percent), unparked: raised.unparked, resumed: false };
}
