// Stalls on the real CLIs' screens (test/fixtures/screens, captured against
// the fake APIs answering 429 / 401 / 400): each classifies as needs_attention
// with its stall, for a pane spex governs too (the record says active, the
// screen wins); no other captured screen reads as a stall.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { classifyPane, ruleSetFor } from "../../lib/live";
import { stallOfHookError } from "../../lib/attention/stall";

const DIR = join(__dirname, "..", "fixtures", "screens");
const screens: { file: string; harness: string; stall?: string }[] = JSON.parse(readFileSync(join(DIR, "fixtures.json"), "utf8"));

describe("stall screens", () => {
  const stalled = screens.filter((s) => s.stall);
  test("there is one for each harness and kind the issue names", () => {
    expect(stalled.map((s) => `${s.harness} ${s.stall}`).sort()).toEqual(
      expect.arrayContaining(["claude auth_required", "claude rate_limited", "codex auth_required", "codex rate_limited", "gemini auth_required", "gemini rate_limited"]),
    );
  });

  for (const s of screens) {
    test(`${s.file}: ${s.stall ?? "no stall"}`, () => {
      const screen = readFileSync(join(DIR, s.file), "utf8");
      for (const governed of [undefined, { lifecycle: "active" as const }, { lifecycle: "idle" as const }]) {
        const v = classifyPane({ paneDead: false, command: s.harness, screen, ruleSet: ruleSetFor(s.harness), governed });
        if (s.stall) {
          expect(v.status).toBe("needs_attention");
          expect(v.stall).toBe(s.stall as never);
          expect(v.reason.startsWith(`${s.stall}: `)).toBe(true);
        } else expect(v.stall).toBeUndefined();
      }
    });
  }

  test("an answer that talks about logging in is not Gemini CLI's login screen", () => {
    const idle = readFileSync(join(DIR, "gemini-0.61.0-answer-shown.txt"), "utf8");
    const answer = ["✦ How would you like to authenticate? Pick Login with Google in the dialog, then:", ...Array.from({ length: 24 }, (_, i) => `  step ${i + 1} of the setup`)].join("\n");
    const v = classifyPane({ paneDead: false, command: "gemini", screen: `${answer}\n${idle}`, ruleSet: ruleSetFor("gemini"), governed: { lifecycle: "idle" } });
    expect(v.stall).toBeUndefined();
  });

  test("an answer that quotes an API-key error is not Claude Code's own", () => {
    const idle = readFileSync(join(DIR, "claude-2.1.197-answer-shown.txt"), "utf8");
    const answer = ["⏺ The handler now answers 401 with \"Invalid API key\" (API Error: 401 in the logs):", ...Array.from({ length: 12 }, (_, i) => `  ${i + 1}. a line of the change`)].join("\n");
    const v = classifyPane({ paneDead: false, command: "claude", screen: `${answer}\n${idle}`, ruleSet: ruleSetFor("claude"), governed: { lifecycle: "idle" } });
    expect(v.stall).toBeUndefined();
  });

  test("a stall recorded on the session shows on its governed pane whatever the screen", () => {
    const screen = readFileSync(join(DIR, "codex-0.171.0-composer-idle.txt"), "utf8");
    const v = classifyPane({ paneDead: false, command: "codex", screen, ruleSet: ruleSetFor("codex"), governed: { lifecycle: "error", stall: "rate_limited" } });
    expect(v).toMatchObject({ status: "needs_attention", rule: "governed.stall", stall: "rate_limited" });
  });

  test("Claude Code's StopFailure errors that are stalls", () => {
    expect(stallOfHookError("rate_limit")).toBe("rate_limited");
    expect(stallOfHookError("authentication_failed")).toBe("auth_required");
    expect(stallOfHookError("billing_error")).toBe("auth_required");
    expect(stallOfHookError("server_error")).toBeUndefined();
    expect(stallOfHookError(undefined)).toBeUndefined();
  });
});
