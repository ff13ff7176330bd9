// Real Gemini under `session new --sandbox` (issue 26 item 4), against the
// fake Gemini API on loopback: ~/.gemini stays writable, its hooks drive
// the record from inside the sandbox (ready, then idle after its turn).
import { afterEach, describe, expect, test } from "bun:test";
import { sandboxAvailability } from "../../lib/workspace/sandbox";
import { type AgentSandbox, agentSandbox, GEMINI_BIN } from "../support/agent-sandbox";
import { explainedWait, paneOf, recordOf, rowOf, screenOf } from "../support/real-sessions";

let as: AgentSandbox<"gemini"> | undefined;
afterEach(async () => {
  await as?.close();
  as = undefined;
});

describe.skipIf(!GEMINI_BIN || !sandboxAvailability().usable)("real Gemini in the sandbox", () => {
  test("new --sandbox 'say hi': ready, its answer on screen, idle on Stop", async () => {
    as = await agentSandbox("gemini", { replyText: "hi from the sandboxed model" });
    const { sb } = as;
    const r = sb.spex(["session", "new", "--launcher", "gemini", "--sandbox", "--json", "say hi"]);
    expect(r.stderr).toBe("");
    const created = JSON.parse(r.stdout);
    expect(created.ready).toBe(true);
    expect(created.sandbox).toBe("on");
    const id = created.session_id;
    const pane = paneOf(sb, id);
    const until = explainedWait(sb, id, () => []);
    await until(() => screenOf(sb, pane).includes("hi from the sandboxed model"), "the answer on screen", 60000);
    await until(() => rowOf(sb, id).display === "idle", "idle after Stop", 60000);
    // SessionStart, from inside, recorded its conversation id.
    expect(recordOf(sb, id).harness_session_id).not.toBe("");
  }, 180000);
});
