// The queue runner: queued entries run with at most `concurrency` in flight,
// each after its jitter delay; --no-queue runs them one at a time, no delay.
// Every entry records its own outcome; one failure does not stop the rest.
import { asSpexError } from "../../cli/output";
import type { BulkEntry, BulkEnvelope, BulkOutcome, MutatingAction } from "./types";

export interface ExecutorResult {
  ok: boolean;
  state?: "done" | "failed" | "skipped";
  code?: string | null;
  message: string;
}

/** Performs one action on one entry; throwing counts as a failure. */
export type BulkExecutor = (action: MutatingAction, entry: BulkEntry) => Promise<ExecutorResult>;

export interface RunOptions {
  sleep?(ms: number): Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function runOne(action: MutatingAction, entry: BulkEntry, executor: BulkExecutor): Promise<BulkOutcome> {
  const startedAt = new Date().toISOString();
  try {
    const r = await executor(action, entry);
    return { ok: r.ok, state: r.state ?? (r.ok ? "done" : "failed"), code: r.code ?? null, message: r.message, startedAt, finishedAt: new Date().toISOString() };
  } catch (e) {
    const err = asSpexError(e);
    return { ok: false, state: "failed", code: err.code, message: err.message, startedAt, finishedAt: new Date().toISOString() };
  }
}

export async function runQueued(envelope: BulkEnvelope, executor: BulkExecutor, opts: RunOptions = {}): Promise<BulkEnvelope> {
  const sleep = opts.sleep ?? defaultSleep;
  const queued = envelope.entries.filter((e) => e.decision === "queued");
  if (queued.length === 0 || !envelope.executionEnabled) return envelope;
  const action = envelope.action as MutatingAction;
  const width = envelope.queue ? Math.max(1, envelope.concurrency) : 1;
  let next = 0;
  const worker = async () => {
    while (next < queued.length) {
      const entry = queued[next++]!;
      if (envelope.queue && entry.scheduledDelayMs > 0) await sleep(entry.scheduledDelayMs);
      entry.outcome = await runOne(action, entry, executor);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, queued.length) }, worker));
  envelope.summary.succeeded = queued.filter((e) => e.outcome?.ok).length;
  envelope.summary.failed = queued.filter((e) => e.outcome && e.outcome.state === "failed").length;
  return envelope;
}
