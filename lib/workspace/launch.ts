// What the workspace adds to a launch (lib/launch/start.ts asks once): the
// environment (SPEX_WORKTREE, the port block), and the lines launch.sh runs
// before it records the agent's pid: the setup, when one is due.
import type { SessionRecord } from "../record";
import type { ProjectStore } from "../store";
import { workspaceConfig } from "./config";
import { setupDue } from "./setup-state";

export interface WorkspaceLaunch {
  env: Record<string, string>;
  /** Shell lines for launch.sh, run in the worktree before the agent's pid is recorded. */
  lines: string[];
  /** How much longer than the readiness timeout the launch may take (the setup's own limit). */
  extraWaitMs: number;
  /** This launch runs the setup first. */
  setup: boolean;
}

export function workspaceLaunch(store: ProjectStore, id: string, record: SessionRecord): WorkspaceLaunch {
  const config = workspaceConfig(store.root);
  const setup = config.setup.kind !== "none" && setupDue(store, id);
  const lines: string[] = [];
  // The runner prints to the pane and the log; the agent starts only when it succeeded.
  if (setup) lines.push('"$SPEX_BIN" internal setup || exit $?');
  return {
    env: { SPEX_WORKTREE: record.worktree_path },
    lines,
    // The runner ends the setup at its limit; a little more for it to say so.
    extraWaitMs: setup ? config.setupTimeoutSec * 1000 + 5000 : 0,
    setup,
  };
}
