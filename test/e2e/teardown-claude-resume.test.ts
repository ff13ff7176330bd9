// The real Claude Code CLI stopped and resumed by spex: resume relaunches it
// with --resume <native id>, and the resumed conversation carries the earlier
// turn (on screen and in what the model is sent).
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { type Sandbox, waitFor } from "../support/sandbox";
import { storedRecord } from "../support/records";
import { CLAUDE_BIN, type ClaudeSandbox, claudeSandbox } from "../support/agent-sandbox";
import { userPrompts } from "../support/fake-apis/anthropic";

let cs: ClaudeSandbox | undefined;
afterEach(async () => {
  await cs?.close();
  cs = undefined;
});

const record = (s: Sandbox, id: string) => storedRecord(s.home, id);

describe.skipIf(!CLAUDE_BIN)("real Claude Code", () => {
  test("stop then resume: relaunched with --resume <native id>, the resumed conversation shows the earlier turn", async () => {
    cs = await claudeSandbox({ replyText: "noted: the word is papaya" });
    const { sb, api } = cs;

    const created = JSON.parse(sb.spex(["session", "new", "--launcher", "claude", "--json", "remember the word papaya"]).stdout);
    const id = created.session_id;
    const native = record(sb, id).harness_session_id;
    await waitFor(() => api.turns().some((t) => userPrompts(t).includes("remember the word papaya")), "the first prompt at the API", 60000);
    await waitFor(() => record(sb, id).status === "idle", "idle after the first turn", 60000);

    const stopped = sb.spex(["session", "stop", id, "--json"]);
    expect(stopped.stderr).toBe("");
    expect(JSON.parse(stopped.stdout).leaf).toMatch(/^(terminated|killed)$/);

    const resumed = sb.spex(["session", "resume", id, "--json"]);
    expect(resumed.stderr).toBe("");
    expect(JSON.parse(resumed.stdout)).toMatchObject({ resumeArgs: ["--resume", native], ready: true });
    const pid = record(sb, id).agent_pid;
    expect(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")).toEqual(expect.arrayContaining(["--resume", native]));

    const pane = `=${record(sb, id).tmux_session}:`;
    await waitFor(() => sb.tmux(["capture-pane", "-p", "-S", "-200", "-t", pane]).stdout.includes("remember the word papaya"), "the earlier turn on the resumed screen", 30000);

    sb.tmux(["send-keys", "-t", pane, "-l", "which word was it"]);
    await waitFor(() => sb.tmux(["capture-pane", "-p", "-t", pane]).stdout.includes("which word was it"), "typed text on screen", 30000);
    sb.tmux(["send-keys", "-t", pane, "Enter"]);
    const second = await waitFor(() => api.turns().find((t) => userPrompts(t).includes("which word was it")), "the resumed prompt at the API", 60000);
    // The model is sent the earlier turn too: the conversation continued rather than restarted.
    expect(userPrompts(second)).toEqual(expect.arrayContaining(["remember the word papaya", "which word was it"]));
  }, 150000);
});
