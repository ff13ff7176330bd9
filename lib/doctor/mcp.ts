// Doctor's view of `spex mcp`: for each agent CLI with sessions here, whether
// their worktrees register spex's MCP server so the CLI starts it unasked.
import { existsSync } from "node:fs";
import { codexProjectTrust, harnessAdapter } from "../harness";
import { readAll } from "../sessions";
import type { ProjectStore } from "../store";

/** One doctor check line (DoctorCheck of ./index, which imports this file). */
interface McpCheck {
  name: string;
  required: boolean;
  ok: boolean;
  detail: string;
}

const WHERE: Record<string, string> = {
  claude: ".mcp.json, enabled in .claude/settings.local.json",
  codex: ".codex/config.toml",
  gemini: ".gemini/settings.json",
};

export function mcpChecks(store: ProjectStore): McpCheck[] {
  const byHarness = new Map<string, { id: string; worktree: string }[]>();
  for (const r of readAll(store)) {
    if (r.kind !== "ok" || r.retired || !existsSync(r.record.worktree_path) || !(r.record.harness in WHERE)) continue;
    byHarness.set(r.record.harness, [...(byHarness.get(r.record.harness) ?? []), { id: r.id, worktree: r.record.worktree_path }]);
  }
  const checks: McpCheck[] = [];
  for (const [harness, sessions] of [...byHarness].sort(([a], [b]) => a.localeCompare(b))) {
    const adapter = harnessAdapter(harness);
    const missing = sessions.filter((s) => !adapter.mcpRegistered?.(s.worktree)).map((s) => s.id.slice(0, 8));
    let ok = missing.length === 0;
    let detail = ok
      ? `spex mcp is registered in ${sessions.length === 1 ? "the" : `all ${sessions.length}`} ${harness} session worktree${sessions.length === 1 ? "" : "s"} (${WHERE[harness]})`
      : `not registered in ${missing.length} of ${sessions.length} ${harness} session worktrees (${missing.join(", ")}): a tracked or hand-made ${WHERE[harness]} there; see docs/mcp.md`;
    // Codex reads a project's .codex/config.toml only once the project is trusted.
    if (harness === "codex" && codexProjectTrust(store.root).level !== "trusted") {
      ok = false;
      detail += `; Codex ignores .codex/config.toml until ${store.root} is trusted (see the codex project trust check)`;
    }
    checks.push({ name: `mcp ${harness}`, required: false, ok, detail });
  }
  return checks;
}
