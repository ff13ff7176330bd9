import type { HarnessAdapter, HookAction, SpawnOptions } from "./types";
import { jsonHookRenderer, readJsonSettings, updateJsonSettings } from "./hook-config";
import { SPEX_MCP_SERVER, declaredSpexServer, isSharedSpexServer, registerJsonMcp, withListEntry } from "./mcp-config";
import type { McpLaunch, McpRegistration } from "./types";
import { randomId } from "../hash";

const EVENTS: Record<string, HookAction> = {
  SessionStart: "start",
  UserPromptSubmit: "turn",
  PreToolUse: "tool",
  // Fires ~0.1 s after the permission dialog shows; Notification(permission_prompt) only ~6 s later.
  PermissionRequest: "ask",
  // An approved tool ran: the agent works again (a long command must not read as asking).
  PostToolUse: "tool",
  Notification: "notify",
  Stop: "stop",
  StopFailure: "fail",
  SessionEnd: "end",
};

function claudeSpawnArgs({ model, effort }: SpawnOptions): string[] {
  return [...(model ? ["--model", model] : []), ...(effort ? ["--effort", effort] : [])];
}

// Local settings: auto-discovered by Claude Code and normally untracked, so
// rendering hooks never dirties a file the repository tracks.
const SETTINGS = ".claude/settings.local.json";

// Project MCP servers: Claude Code asks "New MCP server found" once per
// project unless its local settings enable the server by name.
const MCP_FILE = ".mcp.json";
/** A permission rule naming a server allows every tool of it. */
const MCP_TOOLS_RULE = `mcp__${SPEX_MCP_SERVER}`;

/**
 * `.mcp.json` declares the server; the worktree's local settings enable it and
 * allow its tools (spex's own tools, unasked, as its hooks run unasked). A
 * user who turned the server off (disabledMcpjsonServers) keeps it off; local
 * settings the repository tracks keep the user's permissions as they are, so
 * nothing is registered there (declared but not enabled, it would only ask).
 */
function registerClaudeMcp(worktree: string, server: McpLaunch, tracked: Set<string>): McpRegistration {
  if (tracked.has(SETTINGS)) return { files: [], skipped: `${SETTINGS} is tracked by the repository; spex does not add permissions to it` };
  const declared = registerJsonMcp(worktree, MCP_FILE, { type: "stdio", command: server.command, args: server.args }, tracked.has(MCP_FILE));
  if (declared.skipped) return declared;
  if (tracked.has(MCP_FILE) && !isSharedSpexServer(declaredSpexServer(worktree, MCP_FILE), server.command)) {
    return { files: withdrawMcpGrant(worktree), skipped: `${MCP_FILE} is tracked by the repository and its "${SPEX_MCP_SERVER}" server is not plain \`spex mcp\` (another program, or an environment of its own); spex does not enable it` };
  }
  const local = updateJsonSettings(worktree, SETTINGS, (s) => {
    const disabled = Array.isArray(s.disabledMcpjsonServers) && s.disabledMcpjsonServers.includes(SPEX_MCP_SERVER);
    if (disabled) return s;
    const permissions = (s.permissions && typeof s.permissions === "object" ? s.permissions : {}) as Record<string, unknown>;
    return { ...s, enabledMcpjsonServers: withListEntry(s, "enabledMcpjsonServers", SPEX_MCP_SERVER), permissions: { ...permissions, allow: withListEntry(permissions, "allow", MCP_TOOLS_RULE) } };
  });
  return { files: [...declared.files, local] };
}

/**
 * Take back what an earlier render granted the name "spex" (enabled, its tools
 * allowed) once the tracked server by that name is no longer spex's own: a
 * checkout in the worktree may have brought another one in.
 */
function withdrawMcpGrant(worktree: string): string[] {
  const s = readJsonSettings(worktree, SETTINGS);
  const permissions = (s.permissions && typeof s.permissions === "object" ? s.permissions : {}) as Record<string, unknown>;
  const enabled = Array.isArray(s.enabledMcpjsonServers) ? s.enabledMcpjsonServers : [];
  const allowed = Array.isArray(permissions.allow) ? permissions.allow : [];
  if (!enabled.includes(SPEX_MCP_SERVER) && !allowed.includes(MCP_TOOLS_RULE)) return [];
  const file = updateJsonSettings(worktree, SETTINGS, () => ({
    ...s,
    enabledMcpjsonServers: enabled.filter((n) => n !== SPEX_MCP_SERVER),
    permissions: { ...permissions, allow: allowed.filter((r) => r !== MCP_TOOLS_RULE) },
  }));
  return [file];
}

function claudeMcpRegistered(worktree: string): boolean {
  if (!declaredSpexServer(worktree, MCP_FILE)) return false;
  try {
    const local = readJsonSettings(worktree, SETTINGS);
    return Array.isArray(local.enabledMcpjsonServers) && local.enabledMcpjsonServers.includes(SPEX_MCP_SERVER);
  } catch {
    return false;
  }
}

export const claude: HarnessAdapter = {
  name: "claude",
  defaultCommand: "claude",
  hookEvents: EVENTS,
  interruptKeys: ["Escape"],
  readiness: "hook",
  submitQuietMs: 0,
  // `claude --help` (2.1): --model <alias or full name>, --effort low|medium|high|xhigh|max.
  spawn: { model: true, effort: ["low", "medium", "high", "xhigh", "max"] },
  launchArgs: ({ nativeId, ...spawn }) => [...(nativeId ? ["--session-id", nativeId] : []), ...claudeSpawnArgs(spawn)],
  resumeArgs: (nativeId, spawn = {}) => ["--resume", nativeId, ...claudeSpawnArgs(spawn)],
  assignNativeId: () => randomId(),
  hookConfigFiles: [SETTINGS],
  // Claude Code 2.1 reads .claude/settings*.json from its working directory only (measured).
  hooksFromStartFolder: true,
  renderHooks: jsonHookRenderer(SETTINGS, EVENTS),
  mcpConfigFiles: [MCP_FILE, SETTINGS],
  registerMcp: registerClaudeMcp,
  mcpRegistered: claudeMcpRegistered,
  fatalScreens: [/Invalid API key/i, /Please run \/login/i, /API Error: 401/],
};
