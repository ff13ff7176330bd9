// What a create is asked and what it answers (CLI, HTTP, MCP alike).
import type { SpexError } from "../errors";
import type { SessionRecord } from "../record";
import type { BudgetSpec } from "../attention/budget";
import type { ReadinessWait } from "../launch/start";
import type { IncludedFiles } from "../workspace/include-record";

export interface CreateInput {
  prompt: string;
  launcher?: string;
  name?: string;
  /** A commit-ish to fork from; absent forks from the source-of-truth branch as it is now. */
  base?: string;
  /** Selector of the parent session. */
  parent?: string;
  noLaunch?: boolean;
  /** Past sessions.maxActive, refuse (max_active_reached) instead of queueing. */
  noQueue?: boolean;
  /** The group to file the session in ("" is the root, deliberately); absent: its creator's group. */
  group?: string;
  /** The folder the agent starts in, relative to the worktree; absent: the group's effective directory. */
  directory?: string;
  /** Spawn options, mapped per harness onto its own flags and kept for every later launch. */
  model?: string;
  effort?: string;
  /** A budget for this session (lib/attention); absent: its group's or the project's default, if any. */
  budget?: BudgetSpec;
  /** The calling agent's own session id (its SPEX_SESSION_ID): a child it creates lands in its group. */
  creator?: string;
  /** From the backend: the session id derives from it and replays are answered, not repeated. */
  idempotencyKey?: string;
  cwd?: string;
  /** Told when the launch starts waiting for the agent to be ready (never sent to a backend). */
  onWaiting?: (wait: ReadinessWait) => void;
}

export interface CreateResult {
  record: SessionRecord;
  prompt: string;
  ready: boolean;
  /** A keyed replay answered with the existing record. */
  replayed: boolean;
  /** The group the session is filed in ("" is the root). */
  group: string;
  /** Waiting for a launch slot: its place in the launch queue (1 launches next), else null. */
  queuePosition: number | null;
  /** The ignored files copied from the main checkout, and those left out with why (absent: no include configured). */
  included?: IncludedFiles;
  /** Warnings: create receipts (of other creates) that could not be settled (`receipt_stuck`), queued sessions whose launch this create started and that failed. */
  stuck?: SpexError[];
}
