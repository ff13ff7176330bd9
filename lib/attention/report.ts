// `spex usage`: the project's usage added up by session, group, launcher or
// day, since a day. Each session is brought up to date first (a stat per
// transcript when nothing is new), so the report is as fresh as the
// transcripts. Days are UTC, as the buckets are.
import { groupMembership } from "../coord/groups";
import { SpexError } from "../errors";
import { labelOf, shortId } from "../naming";
import { publicRecord } from "../record";
import { readAll } from "../sessions";
import type { ProjectStore } from "../store";
import { costOf, pricesOrDefaults, refreshUsage, usageBuckets } from "./usage";
import { round } from "./usage/summary";
import { type Buckets, type Tokens, bucketAdd, byModel, sumTokens, tokenTotal } from "./usage/tokens";

export const USAGE_GROUPINGS = ["session", "group", "launcher", "day"] as const;
export type UsageGrouping = (typeof USAGE_GROUPINGS)[number];

export interface UsageLine extends Tokens {
  key: string;
  /** The session's label (by session), else "". */
  label: string;
  sessions: number;
  total: number;
  costUsd: number | null;
  unpriced: string[];
}

export interface UsageReport {
  since: string | null;
  by: UsageGrouping;
  lines: UsageLine[];
  total: UsageLine;
}

/** `--since`: a day (2026-11-30), a time (its day), or a span back from today (7d, 2w). */
export function parseSince(text: string, now = new Date()): string {
  const span = /^(\d+)([dw])$/.exec(text.trim());
  if (span) {
    const days = Number(span[1]) * (span[2] === "w" ? 7 : 1);
    return new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);
  }
  const ms = Date.parse(text);
  if (/^\d{4}-\d{2}-\d{2}/.test(text.trim()) && Number.isFinite(ms)) return new Date(ms).toISOString().slice(0, 10);
  throw new SpexError("usage", `--since ${JSON.stringify(text)} is not a day`, { hint: "give a day (2026-11-30) or a span back from today (7d, 2w)", exitCode: 2, httpStatus: 400 });
}

interface Acc {
  label: string;
  sessions: Set<string>;
  buckets: Buckets;
}

export async function usageReport(store: ProjectStore, opts: { since?: string; by?: UsageGrouping } = {}): Promise<UsageReport> {
  const by = opts.by ?? "session";
  const since = opts.since ?? null;
  const keep = (day: string) => since === null || day >= since;
  const prices = pricesOrDefaults(store.home, store.root);
  const groups = by === "group" ? groupMembership(store) : undefined;
  const acc = new Map<string, Acc>();
  const add = (key: string, label: string, id: string, day: string, models: Record<string, Tokens>) => {
    const a = acc.get(key) ?? { label, sessions: new Set<string>(), buckets: {} };
    a.sessions.add(id);
    for (const [model, t] of Object.entries(models)) bucketAdd(a.buckets, day, model, t);
    acc.set(key, a);
  };
  for (const reading of readAll(store)) {
    if (reading.kind !== "ok") continue;
    const record = publicRecord(reading.record, reading.pending);
    let usage;
    try {
      usage = (await refreshUsage(store, record)).usage;
    } catch {
      continue; // a transcript that cannot be read is left out, not fatal to the report
    }
    const buckets = usageBuckets(usage);
    for (const [day, models] of Object.entries(buckets)) {
      if (!keep(day)) continue;
      const id = record.session_id;
      const key = by === "session" ? id : by === "group" ? groups!.get(id) || "(root)" : by === "launcher" ? record.launcher || record.harness || "(none)" : day;
      add(key, by === "session" ? labelOf(record) : "", id, day, models);
    }
  }
  const lineOf = (key: string, a: Acc): UsageLine => {
    const models = byModel(a.buckets);
    const t = sumTokens(Object.values(models));
    const cost = costOf(models, prices);
    return { key, label: a.label, sessions: a.sessions.size, ...t, total: tokenTotal(t), costUsd: cost.usd === null ? null : round(cost.usd), unpriced: cost.unpriced };
  };
  const lines = [...acc.entries()].map(([k, a]) => lineOf(by === "session" ? shortId(k, 8) : k, a));
  lines.sort((a, b) => (by === "day" ? a.key.localeCompare(b.key) : (b.costUsd ?? -1) - (a.costUsd ?? -1) || b.total - a.total || a.key.localeCompare(b.key)));
  const all: Acc = { label: "", sessions: new Set(), buckets: {} };
  for (const a of acc.values()) {
    for (const id of a.sessions) all.sessions.add(id);
    for (const [day, models] of Object.entries(a.buckets)) for (const [m, t] of Object.entries(models)) bucketAdd(all.buckets, day, m, t);
  }
  return { since, by, lines, total: lineOf("total", all) };
}
