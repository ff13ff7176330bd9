// The real Gemini CLI (from npm) launched by `spex session new` in tmux, against
// the fake Gemini API on loopback: BeforeAgent → active, AfterAgent → idle.
import { afterEach, describe, expect, test } from "bun:test";
import { SPEX_BIN } from "../support/sandbox";
import { type AgentSandbox, agentSandbox, GEMINI_BIN } from "../support/agent-sandbox";
import { countingBin } from "../support/agents";
import { explainedWait, paneOf, pasteInto, recordOf, rowOf, screenOf } from "../support/real-sessions";
import { geminiUserPrompts } from "../support/fake-apis/gemini";
import { gate } from "../support/fake-apis/common";
import { harnessAdapter } from "../../lib/harness";

let as: AgentSandbox<"gemini"> | undefined;
afterEach(async () => {
  await as?.close();
  as = undefined;
});

const gemini = GEMINI_BIN;
if (!gemini) console.warn("skipping the gemini create e2e test: e2e-agents/node_modules/.bin/gemini is missing (make test-agents installs it)");

describe.skipIf(!gemini)("real Gemini CLI", () => {
  test("new 'say hi': ready on SessionStart, the prompt arrives, AfterAgent → idle; a pasted second turn goes active then idle; a tool approval asks and interrupt settles it idle; stop and resume reopen the conversation", async () => {
    as = await agentSandbox("gemini", { replyText: "hi from the fake model" });
    const { sb, api } = as;
    const counter = countingBin(sb, SPEX_BIN);
    const hookWrites = () => counter.calls().filter((c) => c.startsWith("internal hook"));

    const r = sb.spex(["session", "new", "--launcher", "gemini", "--json", "say hi"]);
    expect(r.stderr).toBe("");
    const created = JSON.parse(r.stdout);
    expect(created.ready).toBe(true);
    const id = created.session_id;
    const pane = paneOf(sb, id);
    const screen = () => screenOf(sb!, pane);
    const until = explainedWait(sb, id, hookWrites);
    const display = () => rowOf(sb!, id).display;
    // SessionStart cleared the fence; the conversation is the one spex named with --session-id.
    expect(created.harness_session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(recordOf(sb, id).harness_session_id).toBe(created.harness_session_id);
    expect(hookWrites()[0]).toBe("internal hook gemini start SessionStart");

    await until(() => api!.turns().some((t) => geminiUserPrompts(t).includes("say hi")), "the prompt at the fake API", 60000);
    await until(() => display() === "idle", "idle after AfterAgent", 60000);
    await until(() => screen().includes("hi from the fake model"), "the answer on screen", 30000);
    expect(hookWrites()).toContain("internal hook gemini stop AfterAgent");

    // A second turn: paste, a quiet gap (an Enter within 30 ms is a newline), Enter. BeforeAgent → active.
    const held = gate();
    api.options.hold = { until: held.promise };
    pasteInto(sb, pane, "again please");
    await until(() => screen().includes("again please"), "the pasted text on screen", 30000);
    await new Promise((r) => setTimeout(r, harnessAdapter("gemini").submitQuietMs));
    sb.tmux(["send-keys", "-t", pane, "Enter"]);
    await until(() => api!.turns().some((t) => geminiUserPrompts(t).includes("again please")), "the second prompt at the API", 60000);
    await until(() => display() === "working", "working (active) during the held turn", 30000);
    expect(hookWrites()).toContain("internal hook gemini turn BeforeAgent");
    api.options.hold = undefined;
    held.open();
    await until(() => display() === "idle", "idle again", 60000);

    // A shell tool call: the approval dialog's ToolPermission notification → asking; interrupt (Esc) → idle.
    api.options.queue = [{ functionCall: { name: "run_shell_command", args: { command: "touch spex-probe.txt", description: "Create a probe file" } } }];
    pasteInto(sb, pane, "make the probe");
    await until(() => screen().includes("make the probe"), "the third prompt on screen", 30000);
    await new Promise((r) => setTimeout(r, harnessAdapter("gemini").submitQuietMs));
    sb.tmux(["send-keys", "-t", pane, "Enter"]);
    await until(() => /Allow execution of/.test(screen()), "the approval dialog", 60000);
    await until(() => display() === "asking", "asking on the ToolPermission notification", 30000);
    expect(sb.spex(["session", "interrupt", id, "--json"]).code).toBe(0);
    await until(() => !/Allow execution of/.test(screen()), "the dialog gone", 30000);
    await until(() => display() === "idle", "idle after the interrupt", 30000);

    // stop, then resume: `--resume <id>` reopens the conversation; its SessionStart proves readiness.
    expect(sb.spex(["session", "stop", id, "--json"]).code).toBe(0);
    const resumed = sb.spex(["session", "resume", id, "--json"]);
    expect(resumed.stderr).toBe("");
    expect(JSON.parse(resumed.stdout)).toMatchObject({ ready: true, resumeArgs: ["--resume", created.harness_session_id] });
    await until(() => screenOf(sb!, paneOf(sb!, id)).includes("again please"), "the earlier turns on screen", 30000);
    expect(recordOf(sb, id).harness_session_id).toBe(created.harness_session_id);
  }, 180000);
});
