// Status classification (DESIGN.md §8), pure: a dead pane is dead; a visible
// attention landmark wins; governed panes then take the lifecycle their hooks
// declared; other panes take the first rule that matches, attention before
// active before idle, newest lines first within each.
import type { Lifecycle } from "../record";
import { LIFECYCLE_STATUS } from "./governed";
import { type PaneRule, type RuleSet, type RuleStatus, SHELL_COMMANDS } from "./rules";
import type { Classification } from "./types";

export interface ClassifyInput {
  paneDead: boolean;
  /** The pane's foreground command (tmux pane_current_command). */
  command: string;
  /** The captured visible screen (untrusted text, only ever matched against). */
  screen: string;
  ruleSet: RuleSet;
  /** Present for panes of a spex session (with the stall its record holds, if any). */
  governed?: { lifecycle: Lifecycle; stall?: string };
}

const PRIORITY: RuleStatus[] = ["needs_attention", "active", "idle"];

/**
 * Non-blank lines of a screen, newest first, trailing spaces dropped; at most
 * `limit` of them. Read from the end, so a caller that needs the last few
 * lines of a tall screen does not split all of it (live classifies every pane
 * of a fleet on each run).
 */
export function newestLines(screen: string, limit = Infinity): string[] {
  const lines: string[] = [];
  if (limit <= 0) return lines;
  // The blank rows under the last text (most of a screen that has not filled
  // up) go in one native call rather than a step of this loop each.
  let end = screen.trimEnd().length;
  for (;;) {
    const start = end > 0 ? screen.lastIndexOf("\n", end - 1) : -1;
    const line = screen.slice(start + 1, end).trimEnd();
    if (line !== "") {
      lines.push(line);
      if (lines.length >= limit) break;
    }
    if (start < 0) break;
    end = start;
  }
  return lines;
}

/** The newest non-blank line as display text: trimmed, each run of white space one space; null when blank. */
export function lastVisibleLine(screen: string): string | null {
  const line = newestLines(screen, 1)[0];
  return line === undefined ? null : line.trim().replace(/\s+/g, " ");
}

function commandFits(rule: PaneRule, command: string): boolean {
  if (rule.command && !rule.command.test(command)) return false;
  if (rule.notCommand && rule.notCommand.test(command)) return false;
  return true;
}

function ruleMatches(rule: PaneRule, command: string, lines: string[]): boolean {
  if (!commandFits(rule, command)) return false;
  if (!rule.screen) return true;
  const n = Math.min(lines.length, rule.within ?? lines.length);
  for (let i = 0; i < n; i++) if (rule.screen.test(lines[i]!)) return true;
  return false;
}

/** A rule set split by status once (the rules keep their order), and how many newest lines its landmarks can look at. */
interface Prepared {
  byStatus: Map<RuleStatus, PaneRule[]>;
  depth: number;
}

const prepared = new WeakMap<RuleSet, Prepared>();

function prepare(ruleSet: RuleSet): Prepared {
  let p = prepared.get(ruleSet);
  if (p) return p;
  const byStatus = new Map<RuleStatus, PaneRule[]>();
  for (const status of PRIORITY) byStatus.set(status, ruleSet.rules.filter((r) => r.status === status));
  // A landmark without `within` may sit on any line: then every line counts.
  const depth = ruleSet.rules.reduce((d, r) => (r.screen ? Math.max(d, r.within ?? Infinity) : d), 0);
  p = { byStatus, depth };
  prepared.set(ruleSet, p);
  return p;
}

function firstMatch(rules: PaneRule[], command: string, lines: string[]): PaneRule | undefined {
  // Newest lines first: for each line from the bottom, the first rule of this status that matches it.
  const n = lines.length;
  for (let i = 0; i < n; i++) {
    for (const rule of rules) {
      if (!rule.screen || (rule.within !== undefined && i >= rule.within)) continue;
      if (commandFits(rule, command) && rule.screen.test(lines[i]!)) return rule;
    }
  }
  return rules.find((r) => !r.screen && ruleMatches(r, command, lines));
}

function decided(rule: { id: string; status: RuleStatus; reason: string; stall?: Classification["stall"] }, command: string): Classification {
  const verdict: Classification = { status: rule.status, rule: rule.id, reason: rule.reason.replace("{command}", command || "?") };
  if (rule.stall) verdict.stall = rule.stall;
  return verdict;
}

export function classifyPane(input: ClassifyInput): Classification {
  if (input.paneDead) return { status: "dead", rule: "pane.dead", reason: "tmux reports the pane dead" };
  const { byStatus, depth } = prepare(input.ruleSet);
  const lines = newestLines(input.screen, depth);
  const attention = firstMatch(byStatus.get("needs_attention")!, input.command, lines);
  if (attention) return decided(attention, input.command);
  if (input.governed) {
    const declared = LIFECYCLE_STATUS[input.governed.lifecycle];
    if (input.ruleSet.harness !== "generic" && declared === "active" && SHELL_COMMANDS.test(input.command)) {
      return { status: "idle", rule: "governed.agent-exited", reason: `record says ${input.governed.lifecycle} but the agent has exited to a shell` };
    }
    const stall = input.governed.stall;
    if (stall === "rate_limited" || stall === "auth_required") {
      return { status: "needs_attention", rule: "governed.stall", reason: `${stall}: recorded on the session (lifecycle ${input.governed.lifecycle})`, stall };
    }
    return { status: declared, rule: "governed.lifecycle", reason: `hook-declared lifecycle ${input.governed.lifecycle}` };
  }
  for (const status of PRIORITY.slice(1)) {
    const rule = firstMatch(byStatus.get(status)!, input.command, lines);
    if (rule) return decided(rule, input.command);
  }
  return decided(input.ruleSet.fallback, input.command);
}
