// The real Claude Code CLI (from npm) launched by `spex session new` in tmux,
// against the fake Messages API on loopback: its real hooks drive the record.
import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, SPEX_BIN, sandbox, waitFor } from "../support/sandbox";
import { countingBin } from "../support/agents";
import { prepareClaude, realCliBinary } from "../support/real-agents";
import { type FakeAnthropic, startFakeAnthropic, userPrompts } from "../support/fake-apis/anthropic";

let sb: Sandbox | undefined;
let api: FakeAnthropic | undefined;
afterEach(async () => {
  sb?.cleanup();
  await api?.close();
  sb = undefined;
  api = undefined;
});

const claude = realCliBinary("claude");

function row(s: Sandbox, id: string): Record<string, any> {
  return JSON.parse(s.spex(["session", "ls", id, "--json"]).stdout)[0];
}

function record(s: Sandbox, id: string): Record<string, any> {
  const [key] = readdirSync(join(s.home, "projects"));
  return JSON.parse(readFileSync(join(s.home, "projects", key!, "sessions", id, "session.json"), "utf8"));
}

describe.skipIf(!claude)("real Claude Code", () => {
  test("new 'say hi': the fence clears on SessionStart, idle on Stop, the binary runs only for real changes", async () => {
    sb = sandbox();
    api = await startFakeAnthropic({ replyText: "hi from the fake model" });
    const env = prepareClaude({ home: join(sb.dir, "claude-home"), apiUrl: api.url, trust: [sb.repo] });
    Object.assign(sb.env, env, { SPEX_HOME: sb.home, SPEX_TMUX: sb.tmuxSocket });
    writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ launchers: { claude: { harness: "claude", command: claude } } }));
    const counter = countingBin(sb, SPEX_BIN);

    const r = sb.spex(["session", "new", "--launcher", "claude", "--json", "say hi"]);
    expect(r.stderr).toBe("");
    const created = JSON.parse(r.stdout);
    expect(created.ready).toBe(true);
    const id = created.session_id;
    // SessionStart reported the id spex assigned with --session-id.
    expect(record(sb, id).harness_session_id).toBe(created.harness_session_id);
    expect(record(sb, id).agent_pid).toMatch(/^\d+$/);

    await waitFor(() => api!.turns().some((t) => userPrompts(t).includes("say hi")), "the prompt at the fake API", 60000);
    await waitFor(() => row(sb!, id).display === "idle", "idle after Stop", 60000);
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
    await waitFor(() => sb!.tmux(["capture-pane", "-p", "-t", pane]).stdout.includes("again please"), "typed text on screen", 30000);
    sb.tmux(["send-keys", "-t", pane, "Enter"]);
    await waitFor(() => api!.turns().some((t) => userPrompts(t).includes("again please")), "second prompt at the API", 60000);
    await waitFor(() => counter.calls().filter((c) => c.startsWith("internal hook")).length >= 4, "two more writes", 60000);
    await waitFor(() => row(sb!, id).display === "idle", "idle again", 60000);
    expect(counter.calls().filter((c) => c.startsWith("internal hook")).slice(2)).toEqual([
      "internal hook claude turn UserPromptSubmit",
      "internal hook claude stop Stop",
    ]);
  }, 120000);
});
