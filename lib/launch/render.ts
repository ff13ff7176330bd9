// Rendering a worktree for its harness: the machine-local config snapshot,
// then the agent hook config merged into whatever the user already has. Both
// are written without following a link the base branch may have planted.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { LOCAL_CONFIG_FILE } from "../config";
import { errnoCode } from "../errors";
import { harnessAdapter } from "../harness";
import { refuseLinks, writeFileNoFollow } from "../nofollow";
import { trackedPaths } from "../git/ops";
import { worktreeGitEnv } from "../git/pinned";
import { agentHookScript, selfBin } from "./self";
import { shellQuote } from "./script";

function readLocalConfig(mainRoot: string): { text: string; mode: number } | undefined {
  const src = join(mainRoot, LOCAL_CONFIG_FILE);
  try {
    return { text: readFileSync(src, "utf8"), mode: statSync(src).mode & 0o7777 };
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return undefined;
    throw e;
  }
}

export function copyLocalConfig(mainRoot: string, worktree: string): boolean {
  const local = readLocalConfig(mainRoot);
  if (!local) return false;
  writeFileNoFollow(worktree, LOCAL_CONFIG_FILE, local.text, { mode: local.mode, forceMode: true });
  return true;
}

/**
 * Refuse (`unsafe_path`, naming it) a worktree whose checked-out files would
 * redirect one of the writes the create is about to make: the local config
 * copy and the harness's hook config (in the worktree and, for Codex, in the
 * main checkout). Called before the first of those writes.
 */
export function refuseUnsafeRender(mainRoot: string, worktree: string, harness: string): void {
  const adapter = harnessAdapter(harness);
  if (existsSync(join(mainRoot, LOCAL_CONFIG_FILE))) refuseLinks(worktree, LOCAL_CONFIG_FILE);
  for (const rel of [...adapter.hookConfigFiles, ...adapter.mcpConfigFiles]) refuseLinks(worktree, rel);
  for (const rel of adapter.mainCheckoutFiles ?? []) refuseLinks(mainRoot, rel);
}

/**
 * Install the harness's hook config into the worktree, then register spex's
 * MCP server beside it (DESIGN.md §9). Returns the files written. `pin` is the
 * git environment of a worktree the agent has already had (lib/git/pinned).
 */
export async function renderWorktree(worktree: string, harness: string, home?: string, pin: Record<string, string> = {}): Promise<string[]> {
  const adapter = harnessAdapter(harness);
  if (adapter.hookConfigFiles.length === 0) return [];
  const script = agentHookScript(home);
  const written = await adapter.renderHooks(worktree, (action, event) => `sh ${shellQuote(script)} ${harness} ${action} ${event}`, { home });
  if (!adapter.registerMcp) return written;
  const tracked = await trackedPaths(worktree, adapter.mcpConfigFiles, pin);
  const mcp = adapter.registerMcp(worktree, { command: selfBin(home), args: ["mcp"] }, tracked);
  return [...written, ...mcp.files.filter((f) => !written.includes(f))];
}

/**
 * A session started in a subfolder: a harness that reads its hook config from
 * the folder it starts in gets it there too (the folder was reached without
 * following a link; the files are written the same way).
 */
export async function renderStartFolder(root: string, worktree: string, directory: string | undefined, harness: string, home?: string): Promise<string[]> {
  if (!directory || !harnessAdapter(harness).hooksFromStartFolder) return [];
  return renderWorktree(join(worktree, directory), harness, home, worktreeGitEnv(root, worktree));
}
