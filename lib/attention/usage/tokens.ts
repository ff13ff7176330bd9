// Token counts in one convention for every harness: `input` is what the API
// billed as fresh input, `cacheRead` and `cacheWrite` the cached parts (so
// the four add up to every token the API reported), `output` includes
// reasoning. Kept per day (UTC) and model, so `spex usage --since` and
// `--by day` need no second pass over a transcript.

export interface Tokens {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** day (YYYY-MM-DD, UTC) → model → tokens. */
export type Buckets = Record<string, Record<string, Tokens>>;

export const ZERO: Readonly<Tokens> = Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });

export function tokenTotal(t: Tokens): number {
  return t.input + t.output + t.cacheRead + t.cacheWrite;
}

export function addTokens(a: Tokens, b: Tokens, sign = 1): Tokens {
  return {
    input: a.input + sign * b.input,
    output: a.output + sign * b.output,
    cacheRead: a.cacheRead + sign * b.cacheRead,
    cacheWrite: a.cacheWrite + sign * b.cacheWrite,
  };
}

export function isZero(t: Tokens): boolean {
  return t.input === 0 && t.output === 0 && t.cacheRead === 0 && t.cacheWrite === 0;
}

/** A non-negative whole number from anything a transcript holds. */
export function count(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;
}

export function dayOf(timestamp: unknown, fallback: string): string {
  if (typeof timestamp === "string" && /^\d{4}-\d{2}-\d{2}T/.test(timestamp)) {
    const ms = Date.parse(timestamp);
    if (Number.isFinite(ms)) return new Date(ms).toISOString().slice(0, 10);
  }
  return fallback;
}

/** Add (or with sign -1 take back) tokens in a bucket; empty buckets are dropped. */
export function bucketAdd(buckets: Buckets, day: string, model: string, t: Tokens, sign = 1): void {
  const models = (buckets[day] ??= {});
  const next = addTokens(models[model] ?? ZERO, t, sign);
  if (isZero(next)) delete models[model];
  else models[model] = next;
  if (Object.keys(models).length === 0) delete buckets[day];
}

/** Sum per model over the days kept by `keep` (all by default). */
export function byModel(buckets: Buckets, keep: (day: string) => boolean = () => true): Record<string, Tokens> {
  const out: Record<string, Tokens> = {};
  for (const [day, models] of Object.entries(buckets)) {
    if (!keep(day)) continue;
    for (const [model, t] of Object.entries(models)) out[model] = addTokens(out[model] ?? ZERO, t);
  }
  return out;
}

export function sumTokens(list: Iterable<Tokens>): Tokens {
  let t: Tokens = { ...ZERO };
  for (const x of list) t = addTokens(t, x);
  return t;
}

export function mergeBuckets(into: Buckets, from: Buckets): void {
  for (const [day, models] of Object.entries(from)) for (const [model, t] of Object.entries(models)) bucketAdd(into, day, model, t);
}
