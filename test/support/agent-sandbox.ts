// A sandbox where `--launcher <cli>` runs a real agent CLI from npm against its
// fake model API in this process (DESIGN.md §12 offline settings), for the
// e2e tests that drive it through `spex session new`.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, SPEX_BIN, sandbox } from "./sandbox";
import { GEMINI_MODEL, prepareClaude, prepareCodex, prepareGemini, realCliBinary, shQuote } from "./real-agents";
import { killPaneGroups } from "./real-sessions";
import { type FakeAnthropic, type FakeAnthropicOptions, startFakeAnthropic } from "./fake-apis/anthropic";
import { type FakeOpenAI, type FakeOpenAIOptions, startFakeOpenAI } from "./fake-apis/openai";
import { type FakeGemini, type FakeGeminiOptions, startFakeGemini } from "./fake-apis/gemini";

export const CLAUDE_BIN = realCliBinary("claude");
export const CODEX_BIN = realCliBinary("codex");
export const GEMINI_BIN = realCliBinary("gemini");

interface Kinds {
  claude: { api: FakeAnthropic; options: FakeAnthropicOptions };
  codex: { api: FakeOpenAI; options: FakeOpenAIOptions };
  gemini: { api: FakeGemini; options: FakeGeminiOptions };
}

export interface AgentSandbox<K extends keyof Kinds> {
  sb: Sandbox;
  api: Kinds[K]["api"];
  close(): Promise<void>;
}

/** Per CLI: its fake API, its offline home, and the launcher command spexcode.json names. */
const SETUP: { [K in keyof Kinds]: { start(o: Kinds[K]["options"]): Promise<Kinds[K]["api"]>; env(sb: Sandbox, url: string): Record<string, string>; command(): string } } = {
  claude: {
    start: startFakeAnthropic,
    env: (sb, url) => prepareClaude({ home: join(sb.dir, "claude-home"), apiUrl: url, trust: [sb.repo] }),
    command: () => CLAUDE_BIN!,
  },
  codex: {
    start: startFakeOpenAI,
    // Project trust is the user's; hook trust is left for spex to record.
    env: (sb, url) => prepareCodex({ home: join(sb.dir, "codex-home"), apiUrl: url, trust: [sb.repo] }),
    command: () => CODEX_BIN!,
  },
  gemini: {
    start: startFakeGemini,
    env: (sb, url) => prepareGemini({ home: join(sb.dir, "gemini-home"), apiUrl: url, trust: [sb.repo] }),
    // The automatic model router wants a structured answer the fake does not give: pin the model.
    command: () => `${shQuote(GEMINI_BIN!)} -m ${GEMINI_MODEL}`,
  },
};

export async function agentSandbox<K extends keyof Kinds>(cli: K, options: Kinds[K]["options"] = {}): Promise<AgentSandbox<K>> {
  const sb = sandbox();
  const setup = SETUP[cli];
  const api = (await setup.start(options as never)) as Kinds[K]["api"];
  Object.assign(sb.env, setup.env(sb, api.url), { SPEX_HOME: sb.home, SPEX_TMUX: sb.tmuxSocket });
  writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ launchers: { [cli]: { harness: cli, command: setup.command() } } }));
  return {
    sb,
    api,
    async close() {
      // A CLI sitting in a dialog may ignore the SIGHUP of kill-server: its process group gets a TERM first.
      killPaneGroups(sb);
      sb.cleanup();
      await api.close();
    },
  };
}

export type ClaudeSandbox = AgentSandbox<"claude">;
export const claudeSandbox = (options: FakeAnthropicOptions = {}) => agentSandbox("claude", options);

/**
 * Run spex without blocking this process: the fake API lives here, and a
 * blocking spawn would starve it while the agent waits for an answer.
 */
export function spexAsync(sb: Sandbox, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(SPEX_BIN, args, { cwd: sb.repo, env: sb.env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
