// Acting on budgets. Checked when a session comes to rest (its Stop hook, off
// the fast path: its state just changed) right after its usage is counted,
// and, for a hard budget, at each of its tool calls. At 80 % of a limit the
// owner's `budget` notification goes out once; at 100 % every session the
// budget covers is parked with note `budget_exceeded` as it comes to rest
// (the one at rest now at once; a hard budget also interrupts the working
// ones). The flags that make these once-only live in budget.json, changed
// under the owner's budget lock; the process that changed them acts.
import { join } from "node:path";
import { spawnSelfDetached } from "../launch/spawn-self";
import { withLock } from "../lock";
import { type SessionRecord, publicRecord, readSession, updateRecord } from "../record";
import { readAll } from "../sessions/rows";
import type { ProjectStore } from "../store";
import { type Budget, readBudget, writeBudget } from "./budget";
import { announce } from "./dispatch";
import { BUDGET_NOTE } from "./events";
import { type BudgetFacts, payloadOf } from "./payload";
import { pricesOrDefaults, readUsage, summaryOf } from "./usage";
import { round } from "./usage/summary";

export interface BudgetState {
  owner: string;
  budget: Budget;
  /** Sessions whose usage counts: the owner, and with scope tree its descendants. */
  members: string[];
  spentUsd: number | null;
  spentTokens: number;
  /** The larger of the two ratios, in percent (a limit in USD over unpriced models cannot be measured). */
  percent: number;
}

function records(store: ProjectStore): Map<string, SessionRecord> {
  const out = new Map<string, SessionRecord>();
  for (const r of readAll(store)) if (r.kind === "ok") out.set(r.id, publicRecord(r.record, r.pending));
  return out;
}

function descendants(all: Map<string, SessionRecord>, root: string): string[] {
  const children = new Map<string, string[]>();
  for (const r of all.values()) if (r.parent && r.parent !== r.session_id) children.set(r.parent, [...(children.get(r.parent) ?? []), r.session_id]);
  const out: string[] = [];
  const seen = new Set<string>([root]);
  const stack = [...(children.get(root) ?? [])];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue; // a parent cycle in hand-edited records must not loop
    seen.add(id);
    out.push(id);
    stack.push(...(children.get(id) ?? []));
  }
  return out;
}

/** The budgets that cover a session: its own, and every ancestor's whose scope is the tree. */
function coveringOwners(store: ProjectStore, id: string, parentOf: (id: string) => string): string[] {
  const owners: string[] = [];
  if (readBudget(store, id)) owners.push(id);
  const seen = new Set([id]);
  for (let p = parentOf(id); p && !seen.has(p); p = parentOf(p)) {
    seen.add(p);
    if (readBudget(store, p)?.scope === "tree") owners.push(p);
  }
  return owners;
}

export function budgetState(store: ProjectStore, owner: string, budget: Budget, all: () => Map<string, SessionRecord>, prices = pricesOrDefaults(store.home, store.root)): BudgetState {
  const members = budget.scope === "tree" ? [owner, ...descendants(all(), owner)] : [owner];
  let usd = 0;
  let tokens = 0;
  // As within one session: what the priced models cost, measured once any member has a price; a member
  // on unpriced models alone adds its tokens only, and never hides what the others spent.
  let priced = false;
  let unpriced = false;
  for (const m of members) {
    const s = summaryOf(readUsage(store, m), prices);
    if (!s) continue;
    tokens += s.total;
    if (s.costUsd !== null) {
      usd += s.costUsd;
      priced = true;
    } else if (s.total > 0) unpriced = true;
  }
  const spentUsd = priced || !unpriced ? usd : null;
  const ratios: number[] = [];
  if (budget.tokens !== null) ratios.push(tokens / budget.tokens);
  if (budget.usd !== null && spentUsd !== null) ratios.push(spentUsd / budget.usd);
  return { owner, budget, members, spentUsd: spentUsd === null ? null : round(spentUsd), spentTokens: tokens, percent: ratios.length ? Math.max(...ratios) * 100 : 0 };
}

function facts(s: BudgetState): BudgetFacts {
  return { percent: Math.floor(s.percent), limitUsd: s.budget.usd, limitTokens: s.budget.tokens, spentUsd: s.spentUsd, spentTokens: s.spentTokens, owner: s.owner };
}

/** Park a session over its budget; the change when this write parked it. */
async function park(store: ProjectStore, id: string) {
  return updateRecord(
    store,
    id,
    (r) => {
      if (r.status === "parked" && r.note === BUDGET_NOTE) return undefined;
      // The agent's own kind of declaration: later hooks (a Stop, a tool call) leave it standing until a new turn.
      return { ...r, status: "parked", note: BUDGET_NOTE, declared: "park", proposal: "" };
    },
    { reason: "state", purpose: `budget park ${id}` },
  ).catch(() => undefined); // a retired or corrupt record has nothing left to park
}

/** Interrupt the agent's turn from a detached process: the agent is waiting for the hook that got here. */
async function interruptDetached(store: ProjectStore, id: string): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, SPEX_HOME: store.home, SPEX_PROJECT_ROOT: store.root };
  delete env.SPEX_SESSION_ID;
  delete env.SPEX_TEST_CRASH_AT;
  await spawnSelfDetached(["session", "interrupt", id, "--json"], env).catch(() => false);
}

const atRest = (r: SessionRecord | undefined) => !!r && (r.status === "idle" || r.status === "awaiting") && !r.archived;

export interface BudgetCheck {
  /** Where the session stands against each budget that covers it. */
  states: BudgetState[];
  parked: string[];
  interrupted: string[];
}

/**
 * Check the budgets that cover session `id` (its own, its tree-scoped
 * ancestors') against the usage counted so far, and act. `moment` is "rest"
 * from the Stop hook and "tool" from a hard budget's tool hook.
 */
export async function enforceBudgets(store: ProjectStore, id: string, moment: "rest" | "tool"): Promise<BudgetCheck> {
  const result: BudgetCheck = { states: [], parked: [], interrupted: [] };
  let cache: Map<string, SessionRecord> | undefined;
  const all = () => (cache ??= records(store));
  const parentOf = (x: string) => {
    const r = readSession(store, x);
    return r.kind === "ok" ? r.record.parent : "";
  };
  const owners = coveringOwners(store, id, parentOf);
  if (owners.length === 0) return result;
  const prices = pricesOrDefaults(store.home, store.root);
  for (const owner of owners) {
    // The flags change under the owner's lock: two sessions of one tree at rest together act once.
    const step = await withLock(
      join(store.locksDir, `${owner}.budget.lock`),
      () => {
        const budget = readBudget(store, owner);
        if (!budget) return undefined;
        const state = budgetState(store, owner, budget, all, prices);
        const crossed100 = state.percent >= 100 && !budget.exceeded;
        // Past both at once (a limit below one turn): the 100 % notice says it all.
        const crossed80 = state.percent >= 80 && !budget.warned && !crossed100;
        if (crossed80 || crossed100) writeBudget(store, owner, { ...budget, warned: budget.warned || state.percent >= 80, exceeded: budget.exceeded || crossed100 });
        return { state, crossed80, crossed100 };
      },
      { purpose: `budget ${owner}` },
    );
    if (!step) continue;
    const { state } = step;
    result.states.push(state);
    if (state.percent < 100) {
      if (step.crossed80) await notifyBudget(store, state, undefined);
      continue;
    }
    // Over: the session at rest now parks; when the limit was just crossed, every other member at rest too.
    const members = step.crossed100 ? state.members : state.members.filter((m) => m === id);
    let ownerChange;
    for (const m of members) {
      const r = m === id ? publicRecordOf(store, m) : all().get(m);
      const here = m === id;
      const working = r?.status === "active" || r?.status === "asking";
      if ((here && moment === "rest") || (!here && atRest(r))) {
        const change = await park(store, m);
        if (change) result.parked.push(m);
        if (m === owner) ownerChange = change;
      } else if (state.budget.hard && working && !r?.stopped) {
        // At once: parked now (its later hooks leave that standing), its turn interrupted.
        const change = await park(store, m);
        if (change) result.parked.push(m);
        if (m === owner) ownerChange = change;
        await interruptDetached(store, m);
        result.interrupted.push(m);
      }
    }
    if (step.crossed100) await notifyBudget(store, state, ownerChange);
  }
  return result;
}

function publicRecordOf(store: ProjectStore, id: string): SessionRecord | undefined {
  const r = readSession(store, id);
  return r.kind === "ok" ? publicRecord(r.record, r.pending) : undefined;
}

async function notifyBudget(store: ProjectStore, state: BudgetState, change: { afterView: SessionRecord; beforeView: SessionRecord } | undefined): Promise<void> {
  const after = change?.afterView ?? publicRecordOf(store, state.owner);
  if (!after) return;
  await announce(store, payloadOf("budget", after, change?.beforeView ?? after, { budget: facts(state) }));
}

export interface BudgetView {
  usd: number | null;
  tokens: number | null;
  hard: boolean;
  scope: "session" | "tree";
  source: string;
  spentUsd: number | null;
  spentTokens: number;
  percent: number;
  exceeded: boolean;
}

/** A session's own budget as `show` presents it, or null without one. */
export function budgetView(store: ProjectStore, id: string): BudgetView | null {
  const budget = readBudget(store, id);
  if (!budget) return null;
  const s = budgetState(store, id, budget, () => records(store));
  return { usd: budget.usd, tokens: budget.tokens, hard: budget.hard, scope: budget.scope, source: budget.source, spentUsd: s.spentUsd, spentTokens: s.spentTokens, percent: Math.floor(s.percent), exceeded: budget.exceeded };
}

/**
 * The budget that stands in the way of relaunching session `id`: its own, or a
 * tree-scoped ancestor's, once spex has acted on it reaching 100 % (the
 * `exceeded` flag, reset when the limit is raised). Undefined when none does.
 */
export function spentBudget(store: ProjectStore, id: string): { owner: string; budget: Budget } | undefined {
  const parentOf = (x: string) => {
    const r = readSession(store, x);
    return r.kind === "ok" ? r.record.parent : "";
  };
  for (const owner of coveringOwners(store, id, parentOf)) {
    const budget = readBudget(store, owner);
    if (budget?.exceeded) return { owner, budget };
  }
  return undefined;
}
