// Registering `spex mcp` with an agent CLI, beside its hooks: the server entry
// merged into the harness's JSON config (Claude Code's `.mcp.json`, Gemini's
// `.gemini/settings.json`), the user's own servers kept as they are. A server
// named "spex" that is not ours is the user's and is never replaced; a config
// file the repository tracks is never edited (a machine's absolute path would
// land in a commit), though a spex server it already declares is enabled.
import { basename } from "node:path";
import { readJsonSettings, updateJsonSettings } from "./hook-config";
import type { McpRegistration } from "./types";

export const SPEX_MCP_SERVER = "spex";

/** What the agent's environment must pass on to the server: its identity and its store. */
export const MCP_ENV_VARS = ["SPEX_SESSION_ID", "SPEX_HOME", "SPEX_PROJECT_ROOT", "SPEX_TMUX", "SPEX_BIN"] as const;

/** Is this config entry a spex MCP server (ours to rewrite or enable)? */
export function isSpexServer(entry: unknown): boolean {
  if (!entry || typeof entry !== "object") return false;
  const e = entry as { command?: unknown; args?: unknown };
  return typeof e.command === "string" && /^spex/.test(basename(e.command)) && Array.isArray(e.args) && e.args.length === 1 && e.args[0] === "mcp";
}

/**
 * A declaration a tracked file may share and spex will enable unasked: `spex
 * mcp` itself, nothing more. The file is the repository's (an untrusted branch
 * may have written it): a "spex" server running another program, or passing
 * an environment of its own (another session's id, LD_PRELOAD), keeps the
 * agent's consent dialog.
 */
export function isSharedSpexServer(entry: unknown, ownCommand: string): boolean {
  if (!isSpexServer(entry)) return false;
  const e = entry as Record<string, unknown>;
  const plain = Object.keys(e).every((k) => k === "type" || k === "command" || k === "args");
  return plain && (e.type === undefined || e.type === "stdio") && (e.command === "spex" || e.command === ownCommand);
}

const objectAt = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/**
 * `settings.mcpServers.spex` set to `entry`, unless a "spex" server that is
 * not ours is there (then the settings come back unchanged, `registered` false).
 */
export function mergeMcpServer(settings: Record<string, unknown>, entry: Record<string, unknown>): { settings: Record<string, unknown>; registered: boolean } {
  const servers = objectAt(settings.mcpServers);
  const present = servers[SPEX_MCP_SERVER];
  if (present !== undefined && !isSpexServer(present)) return { settings, registered: false };
  return { settings: { ...settings, mcpServers: { ...servers, [SPEX_MCP_SERVER]: entry } }, registered: true };
}

/** The file's spex server entry, if the file (never read through a link) declares one. */
export function declaredSpexServer(worktree: string, relFile: string): Record<string, unknown> | undefined {
  try {
    const entry = objectAt(readJsonSettings(worktree, relFile).mcpServers)[SPEX_MCP_SERVER];
    return isSpexServer(entry) ? (entry as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Merge the server into a JSON config of the worktree; a tracked file is only read. */
export function registerJsonMcp(worktree: string, relFile: string, entry: Record<string, unknown>, tracked: boolean): McpRegistration {
  if (tracked) {
    return declaredSpexServer(worktree, relFile)
      ? { files: [] }
      : { files: [], skipped: `${relFile} is tracked by the repository; spex does not edit it (declare a "spex" server running \`spex mcp\` there to share one)` };
  }
  let registered = true;
  const file = updateJsonSettings(worktree, relFile, (settings) => {
    const merged = mergeMcpServer(settings, entry);
    registered = merged.registered;
    return merged.settings;
  });
  return registered ? { files: [file] } : { files: [], skipped: `${relFile} already declares another server named "${SPEX_MCP_SERVER}"; it is left as it is` };
}

/** A list setting with `value` added once (order kept). */
export function withListEntry(settings: Record<string, unknown>, key: string, value: string): unknown[] {
  const list = Array.isArray(settings[key]) ? (settings[key] as unknown[]) : [];
  return list.includes(value) ? list : [...list, value];
}
