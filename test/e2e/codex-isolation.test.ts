// Real Codex sessions side by side with Codex's own default of a shared
// app-server daemon per CODEX_HOME (issue 10 item 14). That daemon runs turns
// with the environment of whichever process started it, so its hooks name the
// wrong session; spex launches Codex with --no-daemon, refuses a hook whose
// payload names another conversation, and ends the daemon with the session
// whose environment it carries.
import { afterEach, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SPEX_BIN, type Sandbox } from "../support/sandbox";
import { type AgentSandbox, agentSandbox, CODEX_BIN, spexAsync } from "../support/agent-sandbox";
import { countingBin } from "../support/agents";
import { explainedWait, recordOf, rowOf, screenOf } from "../support/real-sessions";
import { openaiUserPrompts } from "../support/fake-apis/openai";
import { shQuote } from "../support/real-agents";
import { killProcessesWithEnv, processEnvOf, processesWithEnv } from "../support/processes";
import { recordFile } from "../support/teardown";

let as: AgentSandbox<"codex"> | undefined;
let codexHome = "";
afterEach(async () => {
  await as?.close();
  // Whatever still runs on this sandbox's CODEX_HOME (a daemon the test started) goes too.
  if (codexHome) killProcessesWithEnv("CODEX_HOME", codexHome);
  as = undefined;
  codexHome = "";
});

/** Run a command without blocking this process (the fake API answers from here). */
function run(cmd: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => resolve({ code, out }));
  });
}

function hooksLog(sb: Sandbox): string {
  const file = join(sb.home, "hooks.log");
  return existsSync(file) ? readFileSync(file, "utf8") : "";
}

describe.skipIf(!CODEX_BIN)("real Codex, sessions sharing one CODEX_HOME with the daemon on", () => {
  test("a turn the daemon runs with A's environment never writes A's record; B and C land in their own records although the daemon runs; stop A ends the daemon and leaves nothing of A running; C never rewrites stopped A", async () => {
    as = await agentSandbox("codex", { replyText: "hi from the fake model" });
    const { sb, api } = as;
    codexHome = join(sb.dir, "codex-home", ".codex");
    // The user's Codex as shipped: the shared background daemon on (the sandbox turns it off for other tests).
    const config = join(codexHome, "config.toml");
    writeFileSync(config, readFileSync(config, "utf8").replace("daemon_auto_start = false", "daemon_auto_start = true"));
    const counter = countingBin(sb, SPEX_BIN);
    const hookWrites = () => counter.calls().filter((c) => c.startsWith("internal hook"));
    const prompted = (text: string) => api.turns().some((t) => openaiUserPrompts(t).includes(text));
    const create = async (prompt: string) => {
      const r = await spexAsync(sb, ["session", "new", "--launcher", "codex", "--json", prompt]);
      expect(r.stderr).toBe("");
      return JSON.parse(r.stdout).session_id as string;
    };
    const settled = async (id: string, prompt: string) => {
      const until = explainedWait(sb, id, hookWrites);
      await until(() => prompted(prompt), `"${prompt}" at the fake API`, 60000);
      await until(() => rowOf(sb, id).display === "idle" && recordOf(sb, id).harness_session_id !== "", `session ${id.slice(0, 8)} idle with its native id`, 60000);
    };

    const a = await create("first from A");
    await settled(a, "first from A");
    const threadA = recordOf(sb, a).harness_session_id;
    const daemon = () => processesWithEnv("SPEX_SESSION_ID", a).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("app-server"));
    // No daemon of A's own: spex launched it with --no-daemon.
    expect(daemon()).toEqual([]);

    // A daemon carrying A's environment, as an earlier launch (or `codex` run by hand in A's pane) leaves one.
    const started = await run(CODEX_BIN!, ["app-server", "daemon", "start"], processEnvOf(Number(recordOf(sb, a).agent_pid)));
    expect(started).toMatchObject({ code: 0 });
    expect(daemon().length).toBeGreaterThan(0);

    // A Codex served by that daemon (the way every Codex used it before spex passed --no-daemon): its hooks run
    // in the daemon, with A's SPEX_SESSION_ID, for a conversation that is not A's.
    const before = readFileSync(recordFile(sb, a));
    sb.tmux(["new-session", "-d", "-s", "served-by-daemon", "-c", sb.repo, "-x", "200", "-y", "50", `env CODEX_HOME=${shQuote(codexHome)} ${shQuote(CODEX_BIN!)} --remote unix:// 'turn in the daemon'`]);
    const untilA = explainedWait(sb, a, hookWrites);
    await untilA(() => prompted("turn in the daemon"), "the daemon's turn at the fake API", 60000);
    await untilA(() => screenOf(sb, "=served-by-daemon:").includes("hi from the fake model"), "the daemon's turn answered", 60000);
    await untilA(() => hooksLog(sb).includes(`reached session ${a.slice(0, 8)}`), "the daemon's hook refused", 30000);
    expect(readFileSync(recordFile(sb, a))).toEqual(before);
    expect(recordOf(sb, a).harness_session_id).toBe(threadA);

    // B, launched while the daemon runs, keeps its turns (and hooks) to itself.
    const b = await create("second from B");
    await settled(b, "second from B");
    expect(recordOf(sb, b).harness_session_id).not.toBe(threadA);
    expect(recordOf(sb, a).harness_session_id).toBe(threadA);

    const daemonPids = daemon();
    const stopped = await spexAsync(sb, ["session", "stop", a, "--json"]);
    expect(stopped.stderr).toBe("");
    expect(JSON.parse(stopped.stdout).others).toEqual(expect.arrayContaining(daemonPids));
    expect(processesWithEnv("SPEX_SESSION_ID", a)).toEqual([]);
    const stoppedRecord = recordOf(sb, a);
    expect(stoppedRecord.stopped).toBe(true);

    const c = await create("third from C");
    await settled(c, "third from C");
    expect(recordOf(sb, a)).toEqual(stoppedRecord);
    expect(rowOf(sb, b).display).toBe("idle");
  }, 300000);
});
