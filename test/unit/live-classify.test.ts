// Every classification rule is proven by a fixture screen, and every fixture
// classifies to the status (and rule) it was written for.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type LiveStatus, RULE_SETS, classifyPane, lastVisibleLine, ruleSetFor } from "../../lib/live";
import type { Lifecycle } from "../../lib/record";

const DIR = join(__dirname, "..", "fixtures", "live");

interface Fixture {
  file: string;
  harness: string;
  command: string;
  governed: Lifecycle | null;
  paneDead: boolean;
  expect: { status: LiveStatus; rule: string };
  note: string;
}

const fixtures: Fixture[] = JSON.parse(readFileSync(join(DIR, "fixtures.json"), "utf8"));

function classifyFixture(f: Fixture) {
  const screen = readFileSync(join(DIR, f.file), "utf8");
  return classifyPane({
    paneDead: f.paneDead,
    command: f.command,
    screen,
    ruleSet: ruleSetFor(f.harness),
    governed: f.governed ? { lifecycle: f.governed } : undefined,
  });
}

describe("crafted screen fixtures", () => {
  for (const f of fixtures) {
    test(`${f.file} is ${f.expect.status} by ${f.expect.rule}`, () => {
      const verdict = classifyFixture(f);
      expect({ status: verdict.status, rule: verdict.rule }).toEqual(f.expect);
      expect(verdict.reason.length).toBeGreaterThan(0);
    });
  }
});

test("every rule of every harness, and every fallback, is covered by a fixture", () => {
  const covered = new Set(fixtures.map((f) => f.expect.rule));
  const all = Object.values(RULE_SETS).flatMap((set) => [...set.rules.map((r) => r.id), set.fallback.id]);
  all.push("governed.lifecycle", "governed.agent-exited", "pane.dead");
  expect(all.filter((id) => !covered.has(id))).toEqual([]);
});

test("an approval dialog above a newer working line is needs_attention", () => {
  const f = fixtures.find((x) => x.file === "claude-approval-over-working.txt")!;
  const screen = readFileSync(join(DIR, f.file), "utf8");
  expect(lastVisibleLine(screen)).toContain("esc to interrupt");
  expect(classifyFixture(f).status).toBe("needs_attention");
});

test("a visible approval dialog wins over a governed session's declared lifecycle", () => {
  const f = fixtures.find((x) => x.file === "governed-approval-wins.txt")!;
  expect(f.governed).toBe("active");
  expect(classifyFixture(f)).toMatchObject({ status: "needs_attention", rule: "claude.approval" });
});

test("statusReason names the foreground command for a generic pane", () => {
  const v = classifyPane({ paneDead: false, command: "htop", screen: "CPU 3%\n", ruleSet: RULE_SETS.generic });
  expect(v).toEqual({ status: "active", rule: "generic.foreground", reason: "foreground command htop is running" });
});

test("hook-declared lifecycles map onto live statuses", () => {
  const map: Record<Lifecycle, string> = { active: "active", idle: "idle", awaiting: "idle", parked: "idle", queued: "idle", asking: "needs_attention", error: "needs_attention" };
  for (const [lifecycle, status] of Object.entries(map)) {
    const v = classifyPane({ paneDead: false, command: "sh", screen: "", ruleSet: RULE_SETS.generic, governed: { lifecycle: lifecycle as Lifecycle } });
    expect(`${lifecycle}→${v.status}`).toBe(`${lifecycle}→${status}`);
  }
});

test("an old yes/no question above a live shell prompt is not attention", () => {
  const v = classifyPane({ paneDead: false, command: "bash", screen: "Continue? [y/N] y\ndone\ndev@box:~$\n", ruleSet: RULE_SETS.generic });
  expect(v.status).toBe("idle");
});

test("lastVisibleLine is the newest non-blank line, trimmed, runs of white space as one space; null when blank", () => {
  expect(lastVisibleLine("first\n  $(rm -rf ~)   \n\n\n")).toBe("$(rm -rf ~)");
  expect(lastVisibleLine("  gpt-5   xhigh\t fast  ...  Pursuing goal ")).toBe("gpt-5 xhigh fast ... Pursuing goal");
  expect(lastVisibleLine("\n   \n")).toBeNull();
});
