// What happens when an agent comes to rest (its Stop, its failure, its end):
// the hook process, already off the fast path because the state changed,
// brings the session's usage up to date from the transcript the agent just
// wrote (with the agent's own environment to find it), then checks the
// budgets that cover the session: one over its limit is parked before
// anything is delivered to it. A hard budget does the same at each tool call.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type SessionRecord, readSession } from "../record";
import type { ProjectStore } from "../store";
import { hardMarker } from "./budget";
import { enforceBudgets } from "./enforce";
import { refreshUsage } from "./usage/refresh";
import { waitForClaudeReply } from "./usage/settle";
import { claudeTranscriptPath } from "./usage/transcripts";

/** Claude Code's transcript of the session's conversation: where it was found, else where it will be. */
function claudeTranscriptOf(record: SessionRecord, found: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (record.harness !== "claude" || !record.harness_session_id) return undefined;
  return found ?? claudeTranscriptPath(record.directory ? join(record.worktree_path, record.directory) : record.worktree_path, record.harness_session_id, env);
}

async function countAndCheck(store: ProjectStore, id: string, moment: "rest" | "tool", env: NodeJS.ProcessEnv, turnEnded = false): Promise<void> {
  const reading = readSession(store, id);
  if (reading.kind !== "ok") return;
  const record = reading.record;
  try {
    const { usage } = await refreshUsage(store, record, { env, deep: true });
    const transcript = turnEnded ? claudeTranscriptOf(record, usage.sources.find((s) => s.harness === "claude" && s.nativeId === record.harness_session_id)?.file, env) : undefined;
    // The reply may still be in Claude Code's write queue: counted once it is on disk. Read again even when it is
    // there now: it may have landed after the read above (a read with nothing new is a stat). A transcript that
    // does not exist is not waited for: the prompt is written long before the reply, so none means a CLI that keeps none.
    if (transcript && existsSync(transcript)) {
      await waitForClaudeReply(transcript);
      await refreshUsage(store, record, { env, deep: true });
    }
    await enforceBudgets(store, id, moment);
  } catch (e) {
    // Usage is an account of what happened: failing to read it must not fail the agent's hook.
    if (process.env.SPEX_DEBUG) process.stderr.write(`spex attention: usage of ${id}: ${(e as Error).message}\n`);
  }
}

/** `turnEnded`: from the Stop hook, whose turn's reply must be counted (a failure or an exit may have none). */
export async function usageAtRest(store: ProjectStore, id: string, opts: { env?: NodeJS.ProcessEnv; turnEnded?: boolean } = {}): Promise<void> {
  await countAndCheck(store, id, "rest", opts.env ?? process.env, opts.turnEnded);
}

/** A tool call of a session with a hard budget (the hook script only calls in when `budget.hard` exists). */
export async function usageMidTurn(store: ProjectStore, id: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (!existsSync(hardMarker(store, id))) return;
  await countAndCheck(store, id, "tool", env);
}
