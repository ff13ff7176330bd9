// Usage from the real agent CLIs (issue 25 "Must show"): Claude Code, Codex
// and Gemini CLI run through `spex session new` against the fake APIs, which
// report known usage numbers; after one turn and after two, the session shows
// exactly those tokens (each CLI's own transcript read, nothing double
// counted), `ls` prints a COST column and `spex usage` adds them up.
import { afterEach, describe, expect, test } from "bun:test";
import { type AgentSandbox, CLAUDE_BIN, CODEX_BIN, GEMINI_BIN, agentSandbox, spexAsync } from "../support/agent-sandbox";
import { explainedWait } from "../support/real-sessions";
import { formatCost } from "../../lib/attention/usage/summary";

let as: AgentSandbox<any> | undefined;
afterEach(async () => {
  await as?.close();
  as = undefined;
});

interface Case {
  cli: "claude" | "codex" | "gemini";
  bin: string | undefined;
  options: Record<string, unknown>;
  /** One turn's tokens in spex's convention (fresh input, output with reasoning, cache read, cache write). */
  turn: { input: number; output: number; cacheRead: number; cacheWrite: number };
  model: string;
  costPerTurn: number | null;
}

const CASES: Case[] = [
  {
    cli: "claude",
    bin: CLAUDE_BIN,
    options: { usage: { input_tokens: 1000, output_tokens: 50, cache_read_input_tokens: 300, cache_creation_input_tokens: 200 } },
    turn: { input: 1000, output: 50, cacheRead: 300, cacheWrite: 200 },
    model: "claude-opus-4-8",
    // claude-opus-4 prices: 5 in, 25 out, 0.5 cache read, 6.25 cache write per million.
    costPerTurn: (1000 * 5 + 50 * 25 + 300 * 0.5 + 200 * 6.25) / 1e6,
  },
  {
    cli: "codex",
    bin: CODEX_BIN,
    options: { usage: { input_tokens: 1000, cached_tokens: 300, output_tokens: 50, reasoning_tokens: 10 } },
    turn: { input: 700, output: 50, cacheRead: 300, cacheWrite: 0 },
    model: "gpt-5.1-codex",
    costPerTurn: (700 * 1.25 + 50 * 10 + 300 * 0.125) / 1e6,
  },
  {
    cli: "gemini",
    bin: GEMINI_BIN,
    options: { usage: { promptTokenCount: 1000, cachedContentTokenCount: 300, candidatesTokenCount: 50, thoughtsTokenCount: 10 } },
    turn: { input: 700, output: 60, cacheRead: 300, cacheWrite: 0 },
    model: "gemini-2.5-flash",
    costPerTurn: (700 * 0.3 + 60 * 2.5 + 300 * 0.03) / 1e6,
  },
];

const times = (t: Case["turn"], n: number) => ({ input: t.input * n, output: t.output * n, cacheRead: t.cacheRead * n, cacheWrite: t.cacheWrite * n });

for (const c of CASES) {
  describe.skipIf(!c.bin)(`usage with the real ${c.cli} CLI`, () => {
    test(`exact tokens after one turn and after two; ls shows COST, spex usage adds up`, async () => {
      const began = new Date().toISOString().slice(0, 10);
      as = await agentSandbox(c.cli, c.options as never);
      const { sb, api } = as;
      const created = await spexAsync(sb, ["session", "new", "--launcher", c.cli, "--json", "say hi"]);
      expect(created.stderr).toBe("");
      const id = JSON.parse(created.stdout).session_id as string;
      const wait = explainedWait(sb, id, () => []);
      const show = async () => JSON.parse((await spexAsync(sb, ["session", "show", id, "--json"])).stdout);

      await wait(() => api.turns().length >= 1, "the first turn at the fake API", 90000);
      const one = await wait(async () => {
        const s = await show();
        return s.display === "idle" && s.usage && s.usage.total === 0 + c.turn.input + c.turn.output + c.turn.cacheRead + c.turn.cacheWrite ? s : undefined;
      }, "one turn's usage, at rest", 90000);
      expect({ input: one.usage.input, output: one.usage.output, cacheRead: one.usage.cacheRead, cacheWrite: one.usage.cacheWrite }).toEqual(times(c.turn, 1));
      expect(one.usage.models).toEqual([c.model]);
      expect(one.usage.costUsd).toBeCloseTo(c.costPerTurn!, 9);

      // A second turn, delivered by spex when the agent is at rest.
      expect((await spexAsync(sb, ["session", "send", id, "and again"])).code).toBe(0);
      await wait(() => api.turns().length >= 2, "the second turn at the fake API", 90000);
      const two = await wait(async () => {
        const s = await show();
        return s.usage && s.usage.total === 2 * (c.turn.input + c.turn.output + c.turn.cacheRead + c.turn.cacheWrite) ? s : undefined;
      }, "two turns' usage", 90000);
      expect({ input: two.usage.input, output: two.usage.output, cacheRead: two.usage.cacheRead, cacheWrite: two.usage.cacheWrite }).toEqual(times(c.turn, 2));
      expect(two.usage.costUsd).toBeCloseTo(2 * c.costPerTurn!, 9);
      // Nothing past them: the fake API answered exactly two main turns.
      expect(api.turns().length).toBe(2);

      const ls = await spexAsync(sb, ["session", "ls"]);
      // The COST column holds the two turns' cost (wherever other columns put it).
      const [header = "", line = ""] = ls.stdout.split("\n");
      const at = header.search(/\bCOST\b/);
      expect(at).toBeGreaterThan(0);
      expect(line.slice(at).startsWith(`${formatCost(2 * c.costPerTurn!)} `)).toBe(true);

      const report = JSON.parse((await spexAsync(sb, ["usage", "--json"])).stdout);
      expect(report.by).toBe("session");
      expect(report.lines.length).toBe(1);
      expect(report.total).toMatchObject({ sessions: 1, ...times(c.turn, 2) });
      const byDay = JSON.parse((await spexAsync(sb, ["usage", "--by", "day", "--json"])).stdout);
      // The turns' (UTC) day: today, or across midnight the day the test began as well.
      const days = [...new Set([began, new Date().toISOString().slice(0, 10)])];
      expect(days).toEqual(expect.arrayContaining(byDay.lines.map((l: any) => l.key)));
      expect(byDay.lines.length).toBeGreaterThanOrEqual(1);
    }, 300000);

    test("a budget of fewer tokens than one turn parks the session with budget_exceeded at its first Stop", async () => {
      as = await agentSandbox(c.cli, c.options as never);
      const { sb, api } = as;
      const created = await spexAsync(sb, ["session", "new", "--launcher", c.cli, "--budget-tokens", "100", "--json", "say hi"]);
      expect(created.stderr).toBe("");
      const id = JSON.parse(created.stdout).session_id as string;
      const wait = explainedWait(sb, id, () => []);
      await wait(() => api.turns().length >= 1, "the turn at the fake API", 90000);
      const row = await wait(async () => {
        const r = JSON.parse((await spexAsync(sb, ["session", "ls", id, "--json"])).stdout)[0];
        return r.lifecycle === "parked" ? r : undefined;
      }, "parked by its budget", 90000);
      expect(row).toMatchObject({ display: "parked", note: "budget_exceeded" });
      expect(row.usage.total).toBe(c.turn.input + c.turn.output + c.turn.cacheRead + c.turn.cacheWrite);
    }, 300000);
  });
}
