// Prepare an isolated home for each real agent CLI so it runs fully offline
// against a fake model API on loopback (DESIGN.md §12), and return the
// environment to start it with. Nothing here touches the user's real config.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

export const REPO_ROOT = resolve(__dirname, "..", "..");
const BIN = join(REPO_ROOT, "node_modules", ".bin");

export type RealCli = "claude" | "codex" | "gemini";

export function realCliBinary(cli: RealCli): string | undefined {
  const p = join(BIN, cli);
  return existsSync(p) ? p : undefined;
}

/** The installed version of a real CLI, read from its npm package. */
export function realCliVersion(cli: RealCli): string {
  const pkg = { claude: "@anthropic-ai/claude-code", codex: "@openai/codex", gemini: "@google/gemini-cli" }[cli];
  return JSON.parse(readFileSync(join(REPO_ROOT, "node_modules", pkg, "package.json"), "utf8")).version;
}

// Inherited variables that would point a CLI at a real account or change its mode.
const STRIP = /^(ANTHROPIC_|CLAUDE|OPENAI_|CODEX_|GEMINI_|GOOGLE_|TMUX$|TMUX_PANE$)/;

function baseEnv(home: string, extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !STRIP.test(k)) env[k] = v;
  return { ...env, HOME: home, ...extra };
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2) + "\n");
}

// ---------------------------------------------------------------- Claude Code

/** Any key works against the fake; Claude Code asks once per key unless its last 20 characters are approved. */
export const FAKE_ANTHROPIC_KEY = "sk-ant-api03-offline-fake-key-for-spex-tests-0123456789abcdef";

export interface ClaudeSetup {
  /** Temp folder used as HOME; ~/.claude.json and ~/.claude/ are written there. */
  home: string;
  /** Base URL of the fake Messages API (no /v1 suffix). */
  apiUrl: string;
  /** Folders whose trust dialog counts as accepted; a parent covers worktrees under it. */
  trust: string[];
}

export function prepareClaude(s: ClaudeSetup): Record<string, string> {
  mkdirSync(join(s.home, ".claude"), { recursive: true });
  const projects: Record<string, unknown> = {};
  for (const dir of s.trust) projects[dir] = { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] };
  writeJson(join(s.home, ".claude.json"), {
    hasCompletedOnboarding: true,
    customApiKeyResponses: { approved: [FAKE_ANTHROPIC_KEY.slice(-20)], rejected: [] },
    projects,
  });
  return baseEnv(s.home, {
    ANTHROPIC_BASE_URL: s.apiUrl,
    ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
  });
}
