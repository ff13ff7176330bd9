import { claudeRules } from "./claude";
import { codexRules } from "./codex";
import { geminiRules } from "./gemini";
import { genericRules } from "./generic";
import type { RuleHarness, RuleSet } from "./types";

export * from "./types";

export const RULE_SETS: Record<RuleHarness, RuleSet> = {
  claude: claudeRules,
  codex: codexRules,
  gemini: geminiRules,
  generic: genericRules,
};

/** Agent rule sets in detection order. */
export const AGENT_RULE_SETS: RuleSet[] = [claudeRules, codexRules, geminiRules];

/** The rule set of a recorded harness name ("shell" and unknown names are generic). */
export function ruleSetFor(harness: string): RuleSet {
  return harness === "claude" || harness === "codex" || harness === "gemini" ? RULE_SETS[harness] : genericRules;
}
