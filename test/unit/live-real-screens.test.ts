// Screens captured from the real agent CLIs (test/fixtures/screens, recorded by
// the real-CLI e2e work) classify to the status their index expects.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { type LiveStatus, classifyPane, detectRuleSet, ruleSetFor } from "../../lib/live";

const DIR = join(__dirname, "..", "fixtures", "screens");
const INDEX = join(DIR, "fixtures.json");

interface RealScreen {
  file: string;
  harness: string;
  version: string;
  shows: string;
  status: LiveStatus;
}

const screens: RealScreen[] = existsSync(INDEX) ? JSON.parse(readFileSync(INDEX, "utf8")) : [];

test("the real-CLI screen index exists and lists every captured screen", () => {
  expect(screens.length).toBeGreaterThan(0);
  const listed = new Set(screens.map((s) => s.file));
  const files = readdirSync(DIR).filter((f) => f.endsWith(".txt"));
  expect(files.filter((f) => !listed.has(f))).toEqual([]);
});

describe("real agent CLI screens", () => {
  for (const s of screens) {
    test(`${s.file} (${s.shows}) is ${s.status}`, () => {
      const screen = readFileSync(join(DIR, s.file), "utf8");
      // The pane is not governed here: only the harness's screen rules decide.
      const verdict = classifyPane({ paneDead: false, command: s.harness, screen, ruleSet: ruleSetFor(s.harness) });
      expect(`${verdict.status} (${verdict.rule})`).toStartWith(`${s.status} (`);
    });
  }
});

test("each agent's real composer screen names its harness by banner when the process tree cannot", () => {
  const composers = screens.filter((s) => s.file.includes("composer-idle"));
  expect(composers.map((s) => s.harness).sort()).toEqual(["claude", "codex", "gemini"]);
  for (const s of composers) {
    const screen = readFileSync(join(DIR, s.file), "utf8");
    expect(detectRuleSet("node", 0, screen, { commandLines: () => [] }).harness).toBe(s.harness as "claude");
  }
});
