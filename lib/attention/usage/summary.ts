// A session's usage as every surface shows it (ls, show, snapshot, the
// dashboard's rows, `spex usage`): the four token counts, their total, the
// cost where every model is priced, and which models were used.
import type { ModelPrice } from "./price-config";
import { costOf } from "./prices";
import type { UsageFile } from "./store";
import { usageBuckets } from "./store";
import { type Buckets, type Tokens, byModel, sumTokens, tokenTotal } from "./tokens";

export interface UsageSummary extends Tokens {
  total: number;
  /** USD; null when none of the models used has a price. */
  costUsd: number | null;
  models: string[];
  unpriced: string[];
  /** When the last tokens were counted. */
  updatedAt: string;
}

export function summarize(buckets: Buckets, prices: Record<string, ModelPrice>, updatedAt: string, keepDay?: (day: string) => boolean): UsageSummary {
  const models = byModel(buckets, keepDay);
  const t = sumTokens(Object.values(models));
  const cost = costOf(models, prices);
  return { ...t, total: tokenTotal(t), costUsd: cost.usd === null ? null : round(cost.usd), models: Object.keys(models).sort(), unpriced: cost.unpriced, updatedAt };
}

/** The summary of a usage file, or null when nothing was ever counted (no transcript yet, or a shell session). */
export function summaryOf(usage: UsageFile, prices: Record<string, ModelPrice>): UsageSummary | null {
  if (usage.sources.length === 0) return null;
  return summarize(usageBuckets(usage), prices, usage.updatedAt);
}

/** Dollars kept to a billionth: sums of many small products carry no float noise. */
export function round(usd: number): number {
  return Math.round(usd * 1e9) / 1e9;
}

/** "$0.42", "$12.30", "<$0.01"; "-" when unpriced. */
export function formatCost(usd: number | null): string {
  if (usd === null) return "-";
  if (usd > 0 && usd < 0.01) return "<$0.01";
  return `$${usd.toFixed(2)}`;
}

/** 950, 12.3k, 4.1M */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(n < 10_000_000 ? 1 : 0)}M`;
}

/** What a list shows of a session's usage: its cost, or its tokens where nothing it used has a price; "" before any. */
export function costWord(usage: Pick<UsageSummary, "costUsd" | "total"> | null | undefined): string {
  if (!usage) return "";
  return usage.costUsd !== null ? formatCost(usage.costUsd) : `${formatTokens(usage.total)} tok`;
}
