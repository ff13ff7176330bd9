// What happens when an agent comes to rest (its Stop, its failure, its end):
// the hook process, already off the fast path because the state changed,
// brings the session's usage up to date from the transcript the agent just
// wrote (with the agent's own environment to find it), then checks the
// budgets that cover the session: one over its limit is parked before
// anything is delivered to it. A hard budget does the same at each tool call.
import { existsSync } from "node:fs";
import { readSession } from "../record";
import type { ProjectStore } from "../store";
import { hardMarker } from "./budget";
import { enforceBudgets } from "./enforce";
import { refreshUsage } from "./usage/refresh";

async function countAndCheck(store: ProjectStore, id: string, moment: "rest" | "tool", env: NodeJS.ProcessEnv): Promise<void> {
  const reading = readSession(store, id);
  if (reading.kind !== "ok") return;
  try {
    await refreshUsage(store, reading.record, { env, deep: true });
    await enforceBudgets(store, id, moment);
  } catch (e) {
    // Usage is an account of what happened: failing to read it must not fail the agent's hook.
    if (process.env.SPEX_DEBUG) process.stderr.write(`spex attention: usage of ${id}: ${(e as Error).message}\n`);
  }
}

export async function usageAtRest(store: ProjectStore, id: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  await countAndCheck(store, id, "rest", env);
}

/** A tool call of a session with a hard budget (the hook script only calls in when `budget.hard` exists). */
export async function usageMidTurn(store: ProjectStore, id: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (!existsSync(hardMarker(store, id))) return;
  await countAndCheck(store, id, "tool", env);
}
