// Registering `spex mcp` with Codex: a `[mcp_servers.spex]` table in the
// worktree's `.codex/config.toml` (Codex 0.171 reads the project config of
// the folder it runs in, for a trusted project). Codex hands a server only a
// few variables of its own environment, so the table names the ones spex
// needs; it pre-approves spex's tools, as spex pre-trusts its own hooks. The
// table is recognised by its marker comment and rewritten in place; the rest
// of the file is kept byte for byte, and a table spex did not write is left alone.
import { readFileNoFollow, writeFileNoFollow } from "../nofollow";
import { type Line, same, scan } from "./codex-trust";
import { MCP_ENV_VARS, SPEX_MCP_SERVER } from "./mcp-config";
import { tomlList, tomlString } from "./toml";
import type { McpLaunch, McpRegistration } from "./types";

export const CODEX_CONFIG = ".codex/config.toml";
const MARKER = "# spex: the spex MCP server of this session's agent; spex rewrites this table";
/** Past the longest session_wait (5 min): Codex's own default would cut a wait at 60 s. */
const TOOL_TIMEOUT_SEC = 330;

export function codexMcpTable(server: McpLaunch): string[] {
  return [
    `[mcp_servers.${SPEX_MCP_SERVER}]`,
    MARKER,
    `command = ${tomlString(server.command)}`,
    `args = ${tomlList(server.args)}`,
    `env_vars = ${tomlList(MCP_ENV_VARS)}`,
    `default_tools_approval_mode = "approve"`,
    `tool_timeout_sec = ${TOOL_TIMEOUT_SEC}`,
  ];
}

/** Does the document define mcp_servers (or its spex entry) some way a new header would collide with? */
function definedInline(lines: Line[]): boolean {
  return lines.some(
    (l) =>
      !l.header &&
      !l.inString &&
      ((l.table.length === 0 && /^[ \t]*("?)mcp_servers\1[ \t]*(=|\.)/.test(l.text)) || (same(l.table, ["mcp_servers"]) && new RegExp(`^[ \\t]*("?)${SPEX_MCP_SERVER}\\1[ \\t]*(=|\\.)`).test(l.text))),
  );
}

export interface CodexMcpEdit {
  text: string;
  registered: boolean;
  /** Why not, when not. */
  reason?: string;
}

/** The config text with spex's server table added or rewritten; idempotent. */
export function upsertCodexMcp(text: string, server: McpLaunch): CodexMcpEdit {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = scan(text);
  const table = codexMcpTable(server);
  const at = lines.findIndex((l) => l.header && same(l.table, ["mcp_servers", SPEX_MCP_SERVER]));
  if (at >= 0) {
    let end = at + 1;
    while (end < lines.length && !lines[end]!.header) end++;
    const body = lines.slice(at + 1, end);
    if (!body.some((l) => l.text.trim() === MARKER)) return { text, registered: false, reason: `${CODEX_CONFIG} has its own [mcp_servers.${SPEX_MCP_SERVER}] table; it is left as it is` };
    // Keep the blank lines that separate it from the next table.
    let keep = body.length;
    while (keep > 0 && body[keep - 1]!.text.trim() === "") keep--;
    const cr = lines[at]!.text.endsWith("\r") ? "\r" : "";
    const fresh = table.slice(1).map((t) => ({ text: t + cr, table: lines[at]!.table, header: false, inString: false }));
    lines.splice(at + 1, keep, ...fresh);
    return { text: lines.map((l) => l.text).join("\n"), registered: true };
  }
  if (definedInline(lines)) {
    return { text, registered: false, reason: `${CODEX_CONFIG} defines mcp_servers inline; spex does not add a table beside it` };
  }
  let out = text;
  if (out !== "" && !out.endsWith("\n")) out += eol;
  if (out !== "" && !out.endsWith(`${eol}${eol}`)) out += eol;
  return { text: out + table.join(eol) + eol, registered: true };
}

/** Write the table into the worktree's config (never through a link); a tracked config is only read. */
export function registerCodexMcp(worktree: string, server: McpLaunch, tracked: boolean): McpRegistration {
  const before = readFileNoFollow(worktree, CODEX_CONFIG) ?? "";
  if (tracked) {
    const ours = scan(before).some((l) => l.header && same(l.table, ["mcp_servers", SPEX_MCP_SERVER]));
    return ours ? { files: [] } : { files: [], skipped: `${CODEX_CONFIG} is tracked by the repository; spex does not edit it` };
  }
  const edit = upsertCodexMcp(before, server);
  if (!edit.registered) return { files: [], skipped: edit.reason };
  if (edit.text !== before) writeFileNoFollow(worktree, CODEX_CONFIG, edit.text, { mode: 0o600 });
  return { files: [CODEX_CONFIG] };
}

/** Whether the worktree's Codex config declares a spex server. */
export function codexMcpDeclared(worktree: string): boolean {
  let text: string | undefined;
  try {
    text = readFileNoFollow(worktree, CODEX_CONFIG);
  } catch {
    return false;
  }
  return text !== undefined && scan(text).some((l) => l.header && same(l.table, ["mcp_servers", SPEX_MCP_SERVER]));
}
