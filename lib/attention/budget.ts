// Budgets (issue 25 item 3): a limit in dollars and/or tokens per session,
// from `session new --budget-usd/--budget-tokens`, else its group's default,
// else the project's (spexcode.json `budgets`), settled when the session is
// made and kept in `budget.json` beside its record. `scope: tree` counts its
// children's usage (and theirs) toward it. `hard` makes the agent's tool
// hooks check it mid-turn; the marker file `budget.hard` is what the shell
// hook's fast path tests, so a session without one spawns nothing more.
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { SpexError } from "../errors";
import { writeStoreFile } from "../nofollow";
import { readJsonState } from "../record";
import { type ProjectStore, sessionPaths } from "../store";
import { type BudgetDefault, loadAttentionConfig } from "./config";

export interface BudgetSpec {
  usd?: number;
  tokens?: number;
  hard?: boolean;
  scope?: "session" | "tree";
}

export interface Budget {
  version: 1;
  usd: number | null;
  tokens: number | null;
  hard: boolean;
  scope: "session" | "tree";
  /** Where the limit came from: "flag", "group <path>", "project". */
  source: string;
  /** The 80 % notification went out (reset when the limit is raised). */
  warned: boolean;
  /** 100 % was reached and acted on (reset when the limit is raised). */
  exceeded: boolean;
}

export function budgetFile(store: ProjectStore, id: string): string {
  return join(sessionPaths(store, id).dir, "budget.json");
}

/** The marker the shell hook tests (`[ -e … ]`, no spawn) to check a hard budget at every tool call. */
export function hardMarker(store: ProjectStore, id: string): string {
  return join(sessionPaths(store, id).dir, "budget.hard");
}

const isLimit = (v: unknown, whole: boolean) => v === null || (typeof v === "number" && Number.isFinite(v) && v > 0 && (!whole || Number.isInteger(v)));

/** A budget.json spex wrote: anything else (hand-edited, planted) is no budget rather than a crash of every reader. */
function isBudget(v: unknown): v is Budget {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const b = v as Record<string, unknown>;
  return (
    b.version === 1 &&
    isLimit(b.usd, false) &&
    isLimit(b.tokens, true) &&
    typeof b.hard === "boolean" &&
    (b.scope === "session" || b.scope === "tree") &&
    typeof b.source === "string" &&
    typeof b.warned === "boolean" &&
    typeof b.exceeded === "boolean"
  );
}

export function readBudget(store: ProjectStore, id: string): Budget | undefined {
  const read = readJsonState<Budget>(budgetFile(store, id));
  return read.kind === "ok" && isBudget(read.value) ? read.value : undefined;
}

export function writeBudget(store: ProjectStore, id: string, budget: Budget): void {
  // The marker is what turns the mid-turn checks on: made before a hard budget lands and taken away
  // after a soft one has, so a crash between the two writes leaves extra checks, never missing ones.
  const marker = hardMarker(store, id);
  if (budget.hard && !existsSync(marker)) writeStoreFile(marker, "", { durable: true });
  writeStoreFile(budgetFile(store, id), JSON.stringify(budget, null, 2) + "\n", { durable: true });
  if (!budget.hard) rmSync(marker, { force: true });
}

/** `--budget-usd`, `--budget-tokens` as the CLI and the API take them: positive numbers, tokens whole. */
export function checkBudgetSpec(spec: BudgetSpec): BudgetSpec {
  if (spec.usd !== undefined && !(Number.isFinite(spec.usd) && spec.usd > 0)) {
    throw new SpexError("usage", `a budget of ${spec.usd} USD is not a positive amount`, { hint: "for example --budget-usd 2.50", exitCode: 2, httpStatus: 400 });
  }
  if (spec.tokens !== undefined && !(Number.isInteger(spec.tokens) && spec.tokens > 0)) {
    throw new SpexError("usage", `a budget of ${spec.tokens} tokens is not a positive whole number`, { hint: "for example --budget-tokens 2000000", exitCode: 2, httpStatus: 400 });
  }
  if (spec.scope !== undefined && spec.scope !== "session" && spec.scope !== "tree") {
    throw new SpexError("usage", `--budget-scope is session or tree, not ${JSON.stringify(spec.scope)}`, { exitCode: 2, httpStatus: 400 });
  }
  return spec;
}

/** The default for a group: its own entry, else its nearest ancestor's, else the project's. */
function defaultFor(config: { project?: BudgetDefault; groups: Record<string, BudgetDefault> }, group: string): { budget: BudgetDefault; source: string } | undefined {
  const parts = group ? group.split("/") : [];
  for (let n = parts.length; n > 0; n--) {
    const path = parts.slice(0, n).join("/");
    const b = config.groups[path];
    if (b && (b.usd !== undefined || b.tokens !== undefined)) return { budget: b, source: `group ${path}` };
  }
  const p = config.project;
  return p && (p.usd !== undefined || p.tokens !== undefined) ? { budget: p, source: "project" } : undefined;
}

/**
 * The budget a new session gets: the flags given, else the group's or the
 * project's default. `hard` and `scope` given alone apply to the default's limit.
 */
export function resolveBudget(spec: BudgetSpec | undefined, fallback: { budget: BudgetDefault; source: string } | undefined): Budget | undefined {
  const explicit = spec && (spec.usd !== undefined || spec.tokens !== undefined);
  const base = explicit ? { budget: spec as BudgetDefault, source: "flag" } : fallback;
  if (!base) return undefined;
  return {
    version: 1,
    usd: base.budget.usd ?? null,
    tokens: base.budget.tokens ?? null,
    hard: spec?.hard ?? base.budget.hard ?? false,
    scope: spec?.scope ?? base.budget.scope ?? "session",
    source: base.source,
    warned: false,
    exceeded: false,
  };
}

/** A new session's budget (written before its agent starts), or undefined when none applies. */
export function resolveNewBudget(store: ProjectStore, spec: BudgetSpec | undefined, group: string): Budget | undefined {
  if (spec) checkBudgetSpec(spec);
  const config = loadAttentionConfig(store.home, store.root, { notify: false, prices: false, budgets: true });
  return resolveBudget(spec, defaultFor(config.budgets, group));
}
