// Real Codex and Gemini CLI under `session new --sandbox` (issue 26 item 4),
// each against its fake API on loopback: the CLI's own config folder stays
// writable, its hooks drive the record from inside the sandbox (ready, then
// idle after its turn). Claude Code has its own file (claude-sandbox.test.ts).
import { afterEach, describe, expect, test } from "bun:test";
import { sandboxAvailability } from "../../lib/workspace/sandbox";
import { type AgentSandbox, agentSandbox, CODEX_BIN, GEMINI_BIN } from "../support/agent-sandbox";
import { recordOf, rowOf, screenOf, newSandboxed } from "../support/real-sessions";

let as: AgentSandbox<"codex" | "gemini"> | undefined;
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
  });
}
