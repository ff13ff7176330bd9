// What happens when an agent comes to rest (its Stop, its failure, its end):
// the hook process, already off the fast path because the state changed,
// brings the session's usage up to date from the transcript the agent just
// wrote, with the agent's own environment to find it.
import { readSession } from "../record";
import type { ProjectStore } from "../store";
import { refreshUsage } from "./usage/refresh";

export async function usageAtRest(store: ProjectStore, id: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const reading = readSession(store, id);
  if (reading.kind !== "ok") return;
  try {
    await refreshUsage(store, reading.record, { env, deep: true });
  } catch (e) {
    // Usage is an account of what happened: failing to read it must not fail the agent's hook.
    if (process.env.SPEX_DEBUG) process.stderr.write(`spex attention: usage of ${id}: ${(e as Error).message}\n`);
  }
}
