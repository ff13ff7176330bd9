// Real Codex under `session new --sandbox` (issue 26 item 4), against the
// fake Responses API on loopback: CODEX_HOME stays writable, its hooks drive
// the record from inside the sandbox (ready, then idle after its turn).
import { afterEach, describe, expect, test } from "bun:test";
import { sandboxAvailability } from "../../lib/workspace/sandbox";
import { type AgentSandbox, agentSandbox, CODEX_BIN } from "../support/agent-sandbox";
import { explainedWait, paneOf, recordOf, rowOf, screenOf } from "../support/real-sessions";

let as: AgentSandbox<"codex"> | undefined;
afterEach(async () => {
  await as?.close();
  as = undefined;
});

describe.skipIf(!CODEX_BIN || !sandboxAvailability().usable)("real Codex in the sandbox", () => {
  test("new --sandbox 'say hi': ready on its pid, its answer on screen, idle on Stop", async () => {
    as = await agentSandbox("codex", { replyText: "hi from the sandboxed model" });
    const { sb } = as;
    const r = sb.spex(["session", "new", "--launcher", "codex", "--sandbox", "--json", "say hi"]);
    expect(r.stderr).toBe("");
    const created = JSON.parse(r.stdout);
    expect(created.ready).toBe(true);
    expect(created.sandbox).toBe("on");
    const id = created.session_id;
    const pane = paneOf(sb, id);
    const until = explainedWait(sb, id, () => []);
    await until(() => screenOf(sb, pane).includes("hi from the sandboxed model"), "the answer on screen", 60000);
    await until(() => rowOf(sb, id).display === "idle", "idle after Stop", 60000);
    // SessionStart, from inside, recorded Codex's own thread id.
    expect(recordOf(sb, id).harness_session_id).not.toBe("");
  }, 180000);
});
