// The teardown of a session: run by close in the worktree, after the agent
// stopped and before the worktree is removed. Its failure refuses a plain
// close (nothing removed) and is reported, never in the way, by close --force.
import { SpexError } from "../errors";
import type { SessionRecord } from "../record";
import type { ProjectStore } from "../store";
import { workspaceConfig } from "./config";
import { portEnv } from "./ports-env";
import { runSteps } from "./steps";

export interface TeardownOutcome {
  ok: boolean;
  exit: number | null;
  /** `exit 2`, `timed out after 120 s`; "" when it succeeded. */
  reason: string;
  /** The end of what it printed (at most OUTPUT_TAIL bytes). */
  output: string;
  /** True when it ran in an earlier close that was cut short before the worktree went, and was not run again. */
  earlier?: boolean;
  /** True when a signal to close (Ctrl-C, a lost ssh link, a TERM) ended it part way: close stops there, forced or not. */
  interrupted?: boolean;
}

/** The record's mark that a close ran the teardown to success (lib/record: `teardown`). */
export const TEARDOWN_RAN = "ran";

const OUTPUT_TAIL = 16 * 1024;

/**
 * Run the project's teardown for this session; null when none is configured or
 * the worktree is gone. One an earlier close already ran to success (the
 * record says so) is not run again: a teardown that drops a database must not
 * run twice because that close was killed before it removed the worktree.
 */
export async function runTeardown(store: ProjectStore, record: SessionRecord, worktreePresent: boolean): Promise<TeardownOutcome | null> {
  const config = workspaceConfig(store.root);
  if (config.teardown.kind === "none" || !worktreePresent) return null;
  if (record.teardown === TEARDOWN_RAN) return { ok: true, exit: 0, reason: "", output: "", earlier: true };
  let output = "";
  // A Ctrl-C or a hangup of close ends the steps (runSteps): close then stops, forced or not.
  const outcome = await runSteps(config.teardown, {
    mainRoot: store.root,
    cwd: record.worktree_path,
    env: {
      ...process.env,
      SPEX_SESSION_ID: record.session_id,
      SPEX_WORKTREE: record.worktree_path,
      SPEX_PROJECT_ROOT: store.root,
      SPEX_HOME: store.home,
      ...portEnv(record.ports),
    },
    timeoutMs: config.teardownTimeoutSec * 1000,
    write: (chunk) => {
      output = (output + chunk.toString()).slice(-OUTPUT_TAIL);
    },
  });
  const reason = outcome.ok ? "" : `${outcome.reason}${outcome.failed ? `: ${outcome.failed}` : ""}`;
  return { ok: outcome.ok, exit: outcome.exit, reason, output, ...(outcome.interrupted ? { interrupted: true } : {}) };
}

/** A plain close refused by a failing teardown: what it said, and the way past it. */
export function teardownFailed(id: string, t: TeardownOutcome): SpexError {
  const id8 = id.slice(0, 8);
  const said = t.output.trim().split("\n").slice(-10).join(" | ");
  return new SpexError("teardown_failed", `the teardown of session ${id8} failed (${t.reason})${said ? `: ${said}` : ""}; its worktree, branch and record were kept`, {
    hint: t.interrupted
      ? `close was interrupted while the teardown ran, and ended it; \`spex session close ${id8}\` runs the teardown again from the start`
      : `fix what the teardown needs and close again, or \`spex session close --force ${id8}\` (the teardown's failure is then only reported)`,
    details: { exit: t.exit, reason: t.reason, output: t.output },
  });
}
