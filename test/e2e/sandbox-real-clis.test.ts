// Real Codex and Gemini CLI under `session new --sandbox` (issue 26 item 4),
// each against its fake API on loopback: the CLI's own config folder stays
// writable, its hooks drive the record from inside the sandbox (ready, then
// idle after its turn). Claude Code has its own file (claude-sandbox.test.ts).
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { sandboxAvailability } from "../../lib/workspace/sandbox";
import { type AgentSandbox, agentSandbox, CODEX_BIN, GEMINI_BIN } from "../support/agent-sandbox";
import { recordOf, rowOf, screenOf, newSandboxed } from "../support/real-sessions";

let as: AgentSandbox<"codex" | "gemini"> | undefined;

/** Processes whose environment names this session's record: the agent and anything it started. */
function processesOf(recordFile: string): string[] {
  const out: string[] = [];
  for (const pid of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      if (!readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(`SPEX_RECORD=${recordFile}`)) continue;
      out.push(`${pid} ${readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").join(" ").trim()}`);
    } catch {
      // gone while we looked, or not ours to read
    }
  }
  return out;
}
afterEach(async () => {
  await as?.close();
  as = undefined;
});

for (const c of [{ cli: "codex", name: "Codex", bin: CODEX_BIN }, { cli: "gemini", name: "Gemini", bin: GEMINI_BIN }] as const) {
  describe.skipIf(!c.bin || !sandboxAvailability().usable)(`real ${c.name} in the sandbox`, () => {
    test("new --sandbox 'say hi': ready on its pid, its answer on screen, idle on Stop", async () => {
      as = await agentSandbox(c.cli, { replyText: "hi from the sandboxed model" });
      const { sb } = as;
      const { id, pane, until } = newSandboxed(sb, c.cli, "say hi");
      await until(() => screenOf(sb, pane).includes("hi from the sandboxed model"), "the answer on screen", 60000);
      await until(() => rowOf(sb, id).display === "idle", "idle after Stop", 60000);
      // SessionStart, from inside, recorded the CLI's own thread id.
      expect(recordOf(sb, id).harness_session_id).not.toBe("");
    }, 180000);

    const ENDS = ["spex session stop", "its tmux session killed outside spex", "its tmux session killed, then its API, worktree and home gone while the CLI ends"] as const;
    for (const end of ENDS) {
      test(`${end}: nothing of the agent is left running, in or out of the sandbox`, async () => {
        as = await agentSandbox(c.cli, { replyText: "hi from the sandboxed model" });
        const { sb } = as;
        const { id, until } = newSandboxed(sb, c.cli, "say hi");
        await until(() => rowOf(sb, id).display === "idle", "idle after Stop", 60000);
        const recordFile = `${sb.home}/projects/${readdirSync(`${sb.home}/projects`)[0]}/sessions/${id}/session.json`;
        expect(processesOf(recordFile).length).toBeGreaterThan(0);
        if (end === "spex session stop") expect(sb.spex(["session", "stop", id, "--json"]).stderr).toBe("");
        else {
          const tmuxSession = recordOf(sb, id).tmux_session;
          // What CI met: the test's cleanup took the API and the CLI's home while Gemini's UI child was
          // still ending after the hangup; it then spun a core until killed by hand.
          expect(sb.tmux(["kill-session", "-t", `=${tmuxSession}`]).status).toBe(0);
          if (end !== ENDS[1]) {
            await as.api.close();
            rmSync(sb.dir, { recursive: true, force: true });
          }
        }
        // Gemini runs its UI in a child it starts itself: that one must end too.
        await until(() => processesOf(recordFile).length === 0, `no process of the session left: ${processesOf(recordFile).join("; ")}`, 20000);
      }, 180000);
    }
  });
}
