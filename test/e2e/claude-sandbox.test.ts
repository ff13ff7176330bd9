// Real Claude Code under `session new --sandbox` (issue 26 item 4), against
// the fake Messages API on loopback (the network stays on): it starts with its
// own config folder writable, its hooks still drive the record from inside,
// and the Bash tool it runs writes in its worktree and commits, but not
// outside.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { shellQuote } from "../../lib/tmux/quote";
import { sandboxAvailability } from "../../lib/workspace/sandbox";
import { type AgentSandbox, agentSandbox, CLAUDE_BIN } from "../support/agent-sandbox";
import { recordOf, rowOf, screenOf, newSandboxed } from "../support/real-sessions";

let as: AgentSandbox<"claude"> | undefined;
afterEach(async () => {
  await as?.close();
  as = undefined;
});

const usable = sandboxAvailability().usable;

describe.skipIf(!CLAUDE_BIN || !usable)("real Claude Code in the sandbox", () => {
  test("it starts, asks, runs its Bash tool: a write in the worktree and a commit succeed, a write outside fails; idle after Stop", async () => {
    as = await agentSandbox("claude", {});
    const { sb, api } = as;
    const outside = join(sb.env.HOME!, "escaped.txt");
    const command = `echo in > inside.txt; { echo out > ${shellQuote(outside)}; } 2>/dev/null; echo "$?" > outside-rc.txt; git add inside.txt && git commit -qm 'from claude in the sandbox'`;
    api.options.queue = [{ toolUse: { name: "Bash", input: { command, description: "Write two probes" } } }];
    // No counting wrapper around spex here: its log lives where the sandbox may not write.
    // The hooks' work shows in the record instead (asking, then idle).
    const { created, id, pane, until } = newSandboxed(sb, "claude", "write the probes");

    // PermissionRequest from inside the sandbox: asking.
    await until(() => /Do you want to proceed\?/.test(screenOf(sb, pane)), "the permission dialog", 60000);
    await until(() => rowOf(sb, id).display === "asking", "asking", 30000);
    sb.tmux(["send-keys", "-t", pane, "Enter"]);
    await until(() => existsSync(join(created.worktree_path, "outside-rc.txt")), "the tool's run", 60000);
    await until(() => rowOf(sb, id).display === "idle", "idle after Stop", 60000);

    expect(readFileSync(join(created.worktree_path, "inside.txt"), "utf8")).toBe("in\n");
    expect(readFileSync(join(created.worktree_path, "outside-rc.txt"), "utf8").trim()).not.toBe("0");
    expect(existsSync(outside)).toBe(false);
    expect(sb.git(["log", "-1", "--format=%s", created.branch]).trim()).toBe("from claude in the sandbox");
    // Ready above: SessionStart, from inside, cleared the fence; the record keeps the conversation.
    expect(recordOf(sb, id).harness_session_id).toBe(created.harness_session_id);
    expect(recordOf(sb, id).sandbox).toBe("on");
  }, 180000);
});
