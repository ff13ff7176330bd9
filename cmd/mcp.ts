import { SpexCommand } from "./base";

export class McpCommand extends SpexCommand {
  static paths = [["mcp"]];
  static usage = SpexCommand.Usage({
    category: "Backend and checks",
    description: "serve spex to an agent as an MCP server on stdin/stdout",
    details: `
      The Model Context Protocol server an agent CLI starts on its own: tools for sessions (list, show, new, send, wait), the caller's own declarations (done, park, ask), the shared task list, file reservations and groups, each answering the JSON the matching CLI verb prints with \`--json\`. Refusals are tool errors carrying the same \`[code]\`.

      The caller is the session named by SPEX_SESSION_ID (every spex agent pane sets it). Without one, the tools that act as the caller (declarations, task claims, reservations) are refused with \`caller_required\`; the others work.

      \`spex session new\` registers it for Claude Code (\`.mcp.json\`, enabled in \`.claude/settings.local.json\`), Codex (\`.codex/config.toml\`) and Gemini CLI (\`.gemini/settings.json\`) in each worktree; \`spex doctor\` shows whether each harness will load it. See docs/mcp.md.
    `,
    examples: [
      ["Register it by hand for a Claude Code outside spex", "claude mcp add spex -- spex mcp"],
      ["What an agent's client runs (it speaks JSON-RPC on stdio)", "spex mcp"],
    ],
  });

  async execute(): Promise<number> {
    // The SDK loads only here: every other command starts without it.
    const { serveMcp } = await import("../lib/mcp/server");
    await serveMcp();
    // The client is gone: a session_wait still parked must not keep the process alive.
    process.exit(0);
  }
}
