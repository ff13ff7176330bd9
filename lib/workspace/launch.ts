// What the workspace adds to a launch (lib/launch/start.ts asks once): the
// environment (SPEX_WORKTREE, the port block, assigned here), and the lines
// launch.sh runs before it records the agent's pid: the setup, when one is due.
import type { SessionRecord } from "../record";
import type { ProjectStore } from "../store";
import { workspaceConfig } from "./config";
import { assignPorts } from "./ports";
import { blockText, portEnv } from "./ports-env";
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

export async function workspaceLaunch(store: ProjectStore, id: string, record: SessionRecord): Promise<WorkspaceLaunch> {
  const config = workspaceConfig(store.root);
  // The block is the session's from here until it stops (written on its record under the ports lock).
  const ports = config.ports > 0 ? blockText(await assignPorts(store, id, config.ports, config.portRange)) : undefined;
  const setup = config.setup.kind !== "none" && setupDue(store, id);
  const lines: string[] = [];
  // The runner prints to the pane and the log; the agent starts only when it succeeded.
  if (setup) lines.push('"$SPEX_BIN" internal setup || exit $?');
  return {
    env: { SPEX_WORKTREE: record.worktree_path, ...portEnv(ports) },
    lines,
    // The runner ends the setup at its limit; a little more for it to say so.
    extraWaitMs: setup ? config.setupTimeoutSec * 1000 + 5000 : 0,
    setup,
  };
}
