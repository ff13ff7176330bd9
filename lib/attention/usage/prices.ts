// What tokens cost, in USD per million, for the common models of the three
// CLIs as their providers list them (standard tier, the shorter-context
// price where a model has two). These are defaults: `prices` in
// spexcode.json (or $SPEX_HOME/config.json) overrides any of them and adds
// others. A model matches the longest entry that is its name or a prefix of
// it followed by "-" (a dated or variant name: claude-sonnet-4-5-20250929);
// a model with no entry is unpriced: its tokens are shown, its cost is null.
import type { ModelPrice } from "./price-config";
import type { Tokens } from "./tokens";

const p = (input: number, output: number, cacheRead: number, cacheWrite: number): ModelPrice => ({ input, output, cacheRead, cacheWrite });

export const DEFAULT_PRICES: Record<string, ModelPrice> = {
  // Anthropic: a cache write is the 5-minute write (1.25 × input), a read 0.1 × input.
  "claude-opus-4": p(5, 25, 0.5, 6.25),
  "claude-opus-4-0": p(15, 75, 1.5, 18.75),
  "claude-opus-4-1": p(15, 75, 1.5, 18.75),
  "claude-opus-4-20250514": p(15, 75, 1.5, 18.75),
  "claude-sonnet-4": p(3, 15, 0.3, 3.75),
  "claude-haiku-4": p(1, 5, 0.1, 1.25),
  "claude-3-7-sonnet": p(3, 15, 0.3, 3.75),
  "claude-3-5-sonnet": p(3, 15, 0.3, 3.75),
  "claude-3-5-haiku": p(0.8, 4, 0.08, 1),
  "claude-3-opus": p(15, 75, 1.5, 18.75),
  "claude-3-haiku": p(0.25, 1.25, 0.03, 0.3),
  // OpenAI: cached input at a tenth; no surcharge for writing the cache.
  "gpt-5": p(1.25, 10, 0.125, 1.25),
  "gpt-5-codex": p(1.25, 10, 0.125, 1.25),
  "gpt-5.1": p(1.25, 10, 0.125, 1.25),
  "gpt-5.1-codex": p(1.25, 10, 0.125, 1.25),
  "gpt-5.1-codex-max": p(1.25, 10, 0.125, 1.25),
  "gpt-5-mini": p(0.25, 2, 0.025, 0.25),
  "gpt-5-codex-mini": p(0.25, 2, 0.025, 0.25),
  "gpt-5.1-codex-mini": p(0.25, 2, 0.025, 0.25),
  "gpt-5-nano": p(0.05, 0.4, 0.005, 0.05),
  "gpt-4.1": p(2, 8, 0.5, 2),
  "gpt-4.1-mini": p(0.4, 1.6, 0.1, 0.4),
  o3: p(2, 8, 0.5, 2),
  "o4-mini": p(1.1, 4.4, 0.275, 1.1),
  // Google: cached input at a tenth (prompts up to 200k tokens).
  "gemini-2.5-pro": p(1.25, 10, 0.125, 1.25),
  "gemini-2.5-flash": p(0.3, 2.5, 0.03, 0.3),
  "gemini-2.5-flash-lite": p(0.1, 0.4, 0.01, 0.1),
  "gemini-2.0-flash": p(0.1, 0.4, 0.025, 0.1),
  "gemini-3-pro-preview": p(2, 12, 0.2, 2),
};

/** The price entry for a model: overrides first, then the defaults, longest matching name wins. */
export function priceOf(model: string, overrides: Record<string, ModelPrice> = {}): ModelPrice | undefined {
  for (const table of [overrides, DEFAULT_PRICES]) {
    let best: string | undefined;
    for (const key of Object.keys(table)) {
      if ((model === key || model.startsWith(`${key}-`)) && (!best || key.length > best.length)) best = key;
    }
    if (best) return table[best];
  }
  return undefined;
}

export interface Cost {
  /** USD for the priced models; null when no model used is priced. */
  usd: number | null;
  /** Models whose tokens have no price (their tokens are shown, not costed). */
  unpriced: string[];
}

export function costOf(models: Record<string, Tokens>, overrides: Record<string, ModelPrice> = {}): Cost {
  let usd = 0;
  let priced = 0;
  const unpriced: string[] = [];
  for (const [model, t] of Object.entries(models)) {
    const price = priceOf(model, overrides);
    if (!price) {
      unpriced.push(model);
      continue;
    }
    priced++;
    usd += (t.input * price.input + t.output * price.output + t.cacheRead * price.cacheRead + t.cacheWrite * price.cacheWrite) / 1e6;
  }
  return { usd: priced > 0 || unpriced.length === 0 ? usd : null, unpriced: unpriced.sort() };
}
