// A sandbox where `--launcher claude` runs the real Claude Code CLI from npm
// against the fake Messages API in this process (DESIGN.md §12 settings).
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, SPEX_BIN, sandbox } from "./sandbox";
import { prepareClaude, realCliBinary } from "./real-agents";
import { type FakeAnthropic, type FakeAnthropicOptions, startFakeAnthropic } from "./fake-apis/anthropic";

export const CLAUDE_BIN = realCliBinary("claude");

export interface ClaudeSandbox {
  sb: Sandbox;
  api: FakeAnthropic;
  close(): Promise<void>;
}

export async function claudeSandbox(options: FakeAnthropicOptions = {}): Promise<ClaudeSandbox> {
  const sb = sandbox();
  const api = await startFakeAnthropic(options);
  const env = prepareClaude({ home: join(sb.dir, "claude-home"), apiUrl: api.url, trust: [sb.repo] });
  Object.assign(sb.env, env, { SPEX_HOME: sb.home, SPEX_TMUX: sb.tmuxSocket });
  writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ launchers: { claude: { harness: "claude", command: CLAUDE_BIN } } }));
  return {
    sb,
    api,
    async close() {
      sb.cleanup();
      await api.close();
    },
  };
}

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
