// The real Claude Code CLI (from npm) launched by `spex session new` in tmux,
// against the fake Messages API on loopback: its real hooks drive the record.
import { afterEach, describe, expect, test } from "bun:test";
import { type Sandbox, SPEX_BIN, waitFor } from "../support/sandbox";
import { countingBin } from "../support/agents";
import { storedRecord } from "../support/records";
import { CLAUDE_BIN, type ClaudeSandbox, claudeSandbox } from "../support/agent-sandbox";
import { userPrompts } from "../support/fake-apis/anthropic";

let cs: ClaudeSandbox | undefined;
afterEach(async () => {
  await cs?.close();
  cs = undefined;
});

function row(s: Sandbox, id: string): Record<string, any> {
  return JSON.parse(s.spex(["session", "ls", id, "--json"]).stdout)[0];
}

const record = (s: Sandbox, id: string) => storedRecord(s.home, id);

describe.skipIf(!CLAUDE_BIN)("real Claude Code", () => {
  test("new 'say hi': the fence clears on SessionStart, idle on Stop, the binary runs only for real changes", async () => {
    cs = await claudeSandbox({ replyText: "hi from the fake model" });
    const { sb, api } = cs;
    const counter = countingBin(sb, SPEX_BIN);

    const r = sb.spex(["session", "new", "--launcher", "claude", "--json", "say hi"]);
    expect(r.stderr).toBe("");
    const created = JSON.parse(r.stdout);
    expect(created.ready).toBe(true);
    const id = created.session_id;
    // SessionStart reported the id spex assigned with --session-id.
    expect(record(sb, id).harness_session_id).toBe(created.harness_session_id);
    expect(record(sb, id).agent_pid).toMatch(/^\d+$/);

    await waitFor(() => api.turns().some((t) => userPrompts(t).includes("say hi")), "the prompt at the fake API", 60000);
    await waitFor(() => row(sb, id).display === "idle", "idle after Stop", 60000);
    const screen = sb.tmux(["capture-pane", "-p", "-t", `=${record(sb, id).tmux_session}:`]).stdout;
    expect(screen).toContain("hi from the fake model");

    const writes = counter.calls().filter((c) => c.startsWith("internal hook"));
    expect(writes[0]).toBe("internal hook claude start SessionStart");
    expect(writes).toContain("internal hook claude stop Stop");
    // The first turn was already active at launch: its UserPromptSubmit took the fast path.
    expect(writes).toEqual(["internal hook claude start SessionStart", "internal hook claude stop Stop"]);

    // A second turn typed at the composer: UserPromptSubmit → active, Stop → idle, one write each.
    const pane = `=${record(sb, id).tmux_session}:`;
    sb.tmux(["send-keys", "-t", pane, "-l", "again please"]);
    await waitFor(() => sb.tmux(["capture-pane", "-p", "-t", pane]).stdout.includes("again please"), "typed text on screen", 30000);
    sb.tmux(["send-keys", "-t", pane, "Enter"]);
    await waitFor(() => api.turns().some((t) => userPrompts(t).includes("again please")), "second prompt at the API", 60000);
    await waitFor(() => counter.calls().filter((c) => c.startsWith("internal hook")).length >= 4, "two more writes", 60000);
    await waitFor(() => row(sb, id).display === "idle", "idle again", 60000);
    expect(counter.calls().filter((c) => c.startsWith("internal hook")).slice(2)).toEqual([
      "internal hook claude turn UserPromptSubmit",
      "internal hook claude stop Stop",
    ]);
  }, 120000);
});
