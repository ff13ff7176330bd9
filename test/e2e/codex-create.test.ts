// The real Codex CLI (from npm) launched by `spex session new` in tmux, against
// the fake Responses API on loopback. The user trusts the project; spex itself
// must make its rendered hooks trusted, or Codex would stop at "Hooks need review".
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SPEX_BIN } from "../support/sandbox";
import { type AgentSandbox, agentSandbox, CODEX_BIN } from "../support/agent-sandbox";
import { countingBin } from "../support/agents";
import { explainedWait, paneOf, pasteInto, recordOf, rowOf, screenOf } from "../support/real-sessions";
import { openaiUserPrompts } from "../support/fake-apis/openai";
import { gate } from "../support/fake-apis/common";

let as: AgentSandbox<"codex"> | undefined;
afterEach(async () => {
  await as?.close();
  as = undefined;
});

const codex = CODEX_BIN;
if (!codex) console.warn("skipping the codex create e2e test: e2e-agents/node_modules/.bin/codex is missing (make test-agents installs it)");

describe.skipIf(!codex)("real Codex", () => {
  test("new 'say hi': no hooks-review dialog, ready on its pid, native id from SessionStart, idle on Stop; a pasted second turn goes active then idle; an approval asks and interrupt settles it idle; stop and resume reopen the thread, ready on its pid", async () => {
    // The sandbox trusts the project (the user's part); hook trust is left for spex to record.
    as = await agentSandbox("codex", { replyText: "hi from the fake model" });
    const { sb, api } = as;
    const codexHome = join(sb.dir, "codex-home");
    const userConfig = readFileSync(join(codexHome, ".codex", "config.toml"), "utf8");
    const counter = countingBin(sb, SPEX_BIN);
    const hookWrites = () => counter.calls().filter((c) => c.startsWith("internal hook"));

    const r = sb.spex(["session", "new", "--launcher", "codex", "--json", "say hi"]);
    expect(r.stderr).toBe("");
    const created = JSON.parse(r.stdout);
    expect(created.ready).toBe(true);
    const id = created.session_id;
    expect(recordOf(sb, id).agent_pid).toMatch(/^\d+$/);
    const pane = paneOf(sb, id);
    const screen = () => screenOf(sb!, pane);
    const until = explainedWait(sb, id, hookWrites);
    const display = () => rowOf(sb!, id).display;

    // Codex reads a linked worktree's hooks from the main checkout's .codex/hooks.json: spex rendered
    // its hooks there and appended their trust after the user's config.
    const config = readFileSync(join(codexHome, ".codex", "config.toml"), "utf8");
    expect(config.startsWith(userConfig)).toBe(true);
    expect(config).toContain(`[hooks.state."${join(sb.repo, ".codex", "hooks.json")}:session_start:0:0"]`);
    expect(sb.git(["status", "--porcelain"])).not.toContain(".codex");

    await until(() => api!.turns().some((t) => openaiUserPrompts(t).includes("say hi")), "the prompt at the fake API", 60000);
    await until(() => display() === "idle", "idle after Stop", 60000);
    expect(screen()).toContain("hi from the fake model");
    expect(screen()).not.toMatch(/Hooks need review/);
    // SessionStart came with the first prompt, after readiness: its thread id is recorded all the same.
    await until(() => recordOf(sb!, id).harness_session_id !== "", "the native id", 30000);
    expect(recordOf(sb, id).harness_session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(hookWrites()).toContain("internal hook codex start SessionStart");
    expect(hookWrites()).toContain("internal hook codex stop Stop");

    // A second turn pasted at the composer (typed text then Enter is swallowed by Codex's paste-burst guard).
    const held = gate();
    api.options.hold = { until: held.promise };
    pasteInto(sb, pane, "again please");
    await until(() => screen().includes("again please"), "the pasted text on screen", 30000);
    sb.tmux(["send-keys", "-t", pane, "Enter"]);
    await until(() => api!.turns().some((t) => openaiUserPrompts(t).includes("again please")), "the second prompt at the API", 60000);
    await until(() => display() === "working", "working (active) during the held turn", 30000);
    api.options.hold = undefined;
    held.open();
    await until(() => display() === "idle", "idle again", 60000);

    // An escalated command: Codex's approval dialog fires PermissionRequest → asking; interrupt (Esc) → idle.
    api.options.queue = [{ functionCall: { name: "exec_command", arguments: { cmd: "touch /spex-probe-never", sandbox_permissions: "require_escalated", justification: "Create the probe file?" } } }];
    pasteInto(sb, pane, "make the probe");
    await until(() => screen().includes("make the probe"), "the third prompt on screen", 30000);
    sb.tmux(["send-keys", "-t", pane, "Enter"]);
    await until(() => /Would you like to run the following command\?/.test(screen()), "the approval dialog", 60000);
    await until(() => display() === "asking", "asking on PermissionRequest", 30000);
    expect(hookWrites()).toContain("internal hook codex ask PermissionRequest");
    expect(sb.spex(["session", "interrupt", id, "--json"]).code).toBe(0);
    await until(() => /Conversation interrupted/.test(screen()), "the interrupted turn", 30000);
    await until(() => display() === "idle", "idle after the interrupt", 30000);

    // stop, then resume: `codex resume <thread>` fires no SessionStart until a prompt, so readiness is its live pid.
    const thread = recordOf(sb, id).harness_session_id;
    expect(sb.spex(["session", "stop", id, "--json"]).code).toBe(0);
    const resumed = sb.spex(["session", "resume", id, "--json"]);
    expect(resumed.stderr).toBe("");
    expect(JSON.parse(resumed.stdout)).toMatchObject({ ready: true, resumeArgs: ["resume", "--no-daemon", thread] });
    const again = paneOf(sb, id);
    await until(() => screenOf(sb!, again).includes("again please"), "the earlier turns on screen", 30000);
    expect(display()).toBe("idle");
    pasteInto(sb, again, "after the resume");
    await until(() => screenOf(sb!, again).includes("after the resume"), "the pasted prompt after resume", 30000);
    sb.tmux(["send-keys", "-t", again, "Enter"]);
    await until(() => api!.turns().some((t) => openaiUserPrompts(t).includes("after the resume")), "the prompt after resume at the API", 60000);
    await until(() => display() === "idle" && hookWrites().filter((c) => c.endsWith("start SessionStart")).length === 2, "idle, after a second SessionStart", 60000);
    expect(recordOf(sb, id).harness_session_id).toBe(thread);
  }, 180000);
});
