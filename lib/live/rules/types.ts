// Pane rules as data: each harness declares the landmarks that say an agent is
// waiting for a person, working, or at rest. The classifier reads them; tests
// prove each rule against a fixture screen.
import type { LiveStatus } from "../types";

export type RuleHarness = "claude" | "codex" | "gemini" | "generic";
export type RuleStatus = Exclude<LiveStatus, "dead">;

export interface PaneRule {
  /** Stable id, reported as the row's statusRule ("claude.approval"). */
  id: string;
  status: RuleStatus;
  /** The statusReason text; `{command}` is replaced by the foreground command. */
  reason: string;
  /** A landmark tested against each visible line, newest first. */
  screen?: RegExp;
  /** Only the newest N non-blank lines are considered for `screen`. */
  within?: number;
  /** The pane's foreground command must match (or, for notCommand, must not). */
  command?: RegExp;
  notCommand?: RegExp;
  /**
   * The agent is held up by its API, not by a question: a rate or usage
   * limit, or a login or key it needs (lib/attention records it on the session).
   */
  stall?: "rate_limited" | "auth_required";
}

export interface RuleSet {
  harness: RuleHarness;
  /** Matches a command line in the pane's process tree. */
  process?: RegExp;
  /** A screen signature that names the harness when the process tree does not. */
  banner?: RegExp;
  rules: PaneRule[];
  /** What the pane is when no rule matched. */
  fallback: { id: string; status: RuleStatus; reason: string };
}

/** Interactive shells: a pane whose foreground process is one of these sits at a prompt. */
export const SHELL_COMMANDS = /^-?(sh|bash|zsh|dash|fish|ksh|mksh|tcsh|csh|ash|nu|pwsh|xonsh|elvish)$/;
