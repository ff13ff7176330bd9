// Real Claude Code launched by `spex session new`, meeting permission dialogs:
// PermissionRequest makes the session asking at once (Notification comes ~6 s
// later), an approved tool's PostToolUse makes it working again, and an
// interrupt at a dialog (which fires no hook at all) leaves it idle.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { SPEX_BIN } from "../support/sandbox";
import { type AgentSandbox, agentSandbox, CLAUDE_BIN } from "../support/agent-sandbox";
import { countingBin } from "../support/agents";
import { explainedWait, paneOf, pasteInto, recordOf, rowOf, screenOf } from "../support/real-sessions";

let as: AgentSandbox<"claude"> | undefined;
afterEach(async () => {
  await as?.close();
  as = undefined;
});

describe.skipIf(!CLAUDE_BIN)("real Claude Code at a permission dialog", () => {
  test("asking on PermissionRequest with the command in the note, working after the approved tool, idle after an interrupt", async () => {
    as = await agentSandbox("claude", { queue: [{ toolUse: { name: "Bash", input: { command: "touch probe-one", description: "Create a probe file" } } }] });
    const { sb, api } = as;
    const counter = countingBin(sb, SPEX_BIN);
    const hookWrites = () => counter.calls().filter((c) => c.startsWith("internal hook"));

    const created = JSON.parse(sb.spex(["session", "new", "--launcher", "claude", "--json", "make the first probe"]).stdout);
    expect(created.ready).toBe(true);
    const id = created.session_id;
    const pane = paneOf(sb, id);
    const screen = () => screenOf(sb!, pane);
    const until = explainedWait(sb, id, hookWrites);
    const display = () => rowOf(sb!, id).display;

    await until(() => /Do you want to proceed\?/.test(screen()), "the permission dialog", 60000);
    await until(() => display() === "asking", "asking", 30000);
    expect(recordOf(sb, id).note).toBe("Bash: touch probe-one");
    expect(hookWrites()).toContain("internal hook claude ask PermissionRequest");

    // Approve: the tool runs, PostToolUse makes it working, Stop idle.
    sb.tmux(["send-keys", "-t", pane, "Enter"]);
    await until(() => hookWrites().includes("internal hook claude tool PostToolUse"), "PostToolUse after the approved tool", 30000);
    await until(() => display() === "idle", "idle after Stop", 60000);
    expect(screen()).toContain("The command finished.");
    expect(existsSync(join(created.worktree_path, "probe-one"))).toBe(true);

    // A second dialog, interrupted through spex: no hook reports it, interrupt itself settles idle.
    api.options.queue = [{ toolUse: { name: "Bash", input: { command: "touch probe-two", description: "Another probe" } } }];
    pasteInto(sb, pane, "make the second probe");
    await until(() => screen().includes("make the second probe"), "the pasted prompt", 30000);
    sb.tmux(["send-keys", "-t", pane, "Enter"]);
    await until(() => display() === "asking" && /Do you want to proceed\?/.test(screen()), "asking at the second dialog", 60000);
    expect(sb.spex(["session", "interrupt", id, "--json"]).code).toBe(0);
    await until(() => /Interrupted/.test(screen()), "the interrupted dialog", 30000);
    expect(display()).toBe("idle");
  }, 180000);
});
