// Rendering a worktree for its harness: the machine-local config snapshot,
// then the agent hook config merged into whatever the user already has.
import { copyFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { LOCAL_CONFIG_FILE } from "../config";
import { harnessAdapter } from "../harness";
import { agentHookScript } from "./self";
import { shellQuote } from "./script";

export function copyLocalConfig(mainRoot: string, worktree: string): boolean {
  const src = join(mainRoot, LOCAL_CONFIG_FILE);
  if (!existsSync(src)) return false;
  copyFileSync(src, join(worktree, LOCAL_CONFIG_FILE));
  return true;
}

/** Install the harness's hook config into the worktree. Returns the files written. */
export async function renderWorktree(worktree: string, harness: string, home?: string): Promise<string[]> {
  const adapter = harnessAdapter(harness);
  if (adapter.hookConfigFiles.length === 0) return [];
  const script = agentHookScript(home);
  return adapter.renderHooks(worktree, (action, event) => `sh ${shellQuote(script)} ${harness} ${action} ${event}`, { home });
}
