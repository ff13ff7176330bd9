// Usage read from the real CLIs' own transcripts (test/fixtures/transcripts,
// written by Claude Code 2.1.197, Codex 0.171.0 and Gemini CLI 0.61.0 against
// the fake APIs with known usage numbers), whole and in arbitrary pieces.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Harness, emptySource, parseLines } from "../../lib/attention/usage/parse";
import { byModel, sumTokens } from "../../lib/attention/usage/tokens";
import { costOf, priceOf } from "../../lib/attention/usage/prices";

const DIR = join(__dirname, "..", "fixtures", "transcripts");
const FILES: Record<Harness, string> = {
  claude: "claude-2.1.197-067d5678-8f33-4176-b2a3-4317be69bb55.jsonl",
  codex: "codex-0.171.0-rollout.jsonl",
  gemini: "gemini-0.61.0-session.jsonl",
};

// What the fake APIs were told to report, per reply, and how many replies the transcripts hold.
const EXPECTED: Record<Harness, { model: string; tokens: { input: number; output: number; cacheRead: number; cacheWrite: number } }> = {
  // Two messages of 100 fresh input, 20 output, 30 cache read, 40 cache write; one of them written as two lines (text, tool_use).
  claude: { model: "claude-opus-4-8", tokens: { input: 200, output: 40, cacheRead: 60, cacheWrite: 80 } },
  // Two responses of 100 input (30 of them cached) and 20 output (7 of them reasoning).
  codex: { model: "gpt-5.1-codex", tokens: { input: 140, output: 40, cacheRead: 60, cacheWrite: 0 } },
  // Two replies of 100 prompt tokens (30 cached), 20 candidates and 7 thoughts.
  gemini: { model: "gemini-2.5-flash", tokens: { input: 140, output: 54, cacheRead: 60, cacheWrite: 0 } },
};

function parsedInPieces(harness: Harness, text: string, cuts: number[]) {
  const state = emptySource();
  let carry = "";
  let last = 0;
  for (const cut of [...cuts, text.length]) {
    const chunk = carry + text.slice(last, cut);
    const nl = chunk.lastIndexOf("\n");
    parseLines(harness, chunk.slice(0, nl + 1), state);
    carry = chunk.slice(nl + 1);
    last = cut;
  }
  return state;
}

describe("usage from the real transcripts", () => {
  for (const harness of ["claude", "codex", "gemini"] as Harness[]) {
    const text = readFileSync(join(DIR, FILES[harness]), "utf8");
    const want = EXPECTED[harness];

    test(`${harness}: the tokens the fake API reported, by model, each message once`, () => {
      const state = emptySource();
      parseLines(harness, text, state);
      const models = byModel(state.buckets);
      expect(Object.keys(models)).toEqual([want.model]);
      expect(models[want.model]).toEqual(want.tokens);
    });

    test(`${harness}: read in pieces cut anywhere (mid-line, between duplicate lines), the same totals`, () => {
      for (let seed = 1; seed <= 25; seed++) {
        const cuts: number[] = [];
        let x = seed * 7919;
        for (let i = 0; i < 1 + (seed % 6); i++) {
          x = (x * 48271) % 2147483647;
          cuts.push(x % text.length);
        }
        cuts.sort((a, b) => a - b);
        const state = parsedInPieces(harness, text, cuts);
        expect(sumTokens(Object.values(byModel(state.buckets)))).toEqual(want.tokens);
      }
    });
  }

  test("a line cut off mid-write is not counted until it is whole", () => {
    const text = readFileSync(join(DIR, FILES.gemini), "utf8");
    const state = emptySource();
    const lastGemini = text.lastIndexOf('{"id"');
    parseLines("gemini", text.slice(0, lastGemini + 40), state);
    const partial = sumTokens(Object.values(byModel(state.buckets)));
    expect(partial.output).toBe(27);
  });
});

describe("prices", () => {
  test("a dated or variant name takes its family's price; an unknown model has none, its cost is null", () => {
    expect(priceOf("claude-sonnet-4-5-20250929")?.input).toBe(3);
    expect(priceOf("claude-opus-4-1-20250805")?.input).toBe(15);
    expect(priceOf("claude-opus-4-8")?.input).toBe(5);
    expect(priceOf("gpt-5.1-codex-mini")?.input).toBe(0.25);
    expect(priceOf("gpt-5.2")).toBeUndefined();
    expect(priceOf("my-local-model")).toBeUndefined();
    expect(costOf({ "my-local-model": { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 } })).toEqual({ usd: null, unpriced: ["my-local-model"] });
  });

  test("an override wins over the defaults", () => {
    const cost = costOf({ "gemini-2.5-flash": { input: 1_000_000, output: 1_000_000, cacheRead: 0, cacheWrite: 0 } }, { "gemini-2.5-flash": { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } });
    expect(cost.usd).toBe(3);
  });
});
