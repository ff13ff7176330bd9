// Where teardown time goes, for bench/close.bench.ts: git and tmux calls and
// the wait for the agent to exit are wrapped in spans; with SPEX_TEARDOWN_TIMING=1 the totals go to stderr as one
// JSON line when the command finishes. Off, a span costs one env lookup.
export type SpanKind = "git" | "tmux" | "leaf";

const totals: Record<SpanKind, number> = { git: 0, tmux: 0, leaf: 0 };
const counts: Record<SpanKind, number> = { git: 0, tmux: 0, leaf: 0 };

function enabled(): boolean {
  return process.env.SPEX_TEARDOWN_TIMING === "1";
}

export function timed<T>(kind: SpanKind, fn: () => T): T {
  if (!enabled()) return fn();
  const t0 = performance.now();
  try {
    return fn();
  } finally {
    totals[kind] += performance.now() - t0;
    counts[kind] += 1;
  }
}

/** The spans so far, in milliseconds, plus time since the process started. */
export function timingReport(): { gitMs: number; tmuxMs: number; leafMs: number; gitCalls: number; tmuxCalls: number; processMs: number } {
  return {
    gitMs: round(totals.git),
    tmuxMs: round(totals.tmux),
    leafMs: round(totals.leaf),
    gitCalls: counts.git,
    tmuxCalls: counts.tmux,
    processMs: round(performance.now()),
  };
}

/** Print the spans once (commands call this as they finish). */
export function flushTiming(stderr: NodeJS.WritableStream): void {
  if (enabled()) stderr.write(`spex-timing ${JSON.stringify(timingReport())}\n`);
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
