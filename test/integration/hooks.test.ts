import { afterEach, describe, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, REPO_ROOT, sandbox } from "../support/sandbox";
import { seedRecord } from "../support/records";
import { projectStore, recordLockPath, sessionPaths } from "../../lib/store";
import { type SessionRecord, readSession, writeRecordFile } from "../../lib/record";
import { processIdentity } from "../../lib/proc";
import { acquireLock } from "../../lib/lock";
import { handleHookEvent } from "../../lib/hooks/handle";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

const HOOK = join(REPO_ROOT, "hooks", "agent-hook.sh");

/** Run the hook script with an empty PATH: any external command it tried to spawn would fail loudly. */
function runHook(s: Sandbox, rec: SessionRecord, action: string, event: string) {
  const marker = join(s.dir, "binary-called");
  const fakeBin = join(s.dir, "must-not-run");
  const jscMarker = join(s.dir, "binary-jsc");
  writeFileSync(fakeBin, `#!/bin/sh\necho "$@" >> '${marker}'\necho "warm-up \${BUN_JSC_useWarmUpMarkedBlocks-unset}, JIT \${BUN_JSC_useJIT-unset}" >> '${jscMarker}'\n`);
  chmodSync(fakeBin, 0o755);
  const record = sessionPaths(projectStore(s.repo, s.home), rec.session_id).record;
  const r = spawnSync("/bin/sh", [HOOK, "claude", action, event], {
    env: { PATH: "/nonexistent", SPEX_RECORD: record, SPEX_BIN: fakeBin, SPEX_SESSION_ID: rec.session_id },
    input: "{}",
    encoding: "utf8",
  });
  const read = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : "");
  return { code: r.status, stderr: r.stderr, called: read(marker), jsc: read(jscMarker) };
}

describe("the agent hook script", () => {
  const cases: [string, string, Partial<SessionRecord>, boolean][] = [
    ["stop", "Stop", { status: "idle" }, false],
    ["stop", "Stop", { status: "awaiting", proposal: "merge" }, false],
    ["stop", "Stop", { status: "active" }, true],
    ["stop", "Stop", { status: "idle", after_turn: "archive" }, true],
    ["turn", "UserPromptSubmit", { status: "active" }, false],
    ["turn", "UserPromptSubmit", { status: "active", proposal: "merge" }, true],
    ["turn", "UserPromptSubmit", { status: "idle" }, true],
    ["tool", "PreToolUse", { status: "active", proposal: "merge" }, false],
    ["tool", "PreToolUse", { status: "asking" }, true],
    ["notify", "Notification", { status: "asking" }, false],
    ["end", "SessionEnd", { status: "idle", stopped: true }, false],
    ["start", "SessionStart", { status: "active" }, true],
    // The agent's own declaration stands until a new turn: later inferences spawn nothing.
    ["stop", "Stop", { status: "parked", note: "blocked", declared: "park" }, false],
    ["stop", "Stop", { status: "parked", note: "blocked", declared: "park", after_turn: "stop" }, true],
    ["tool", "PostToolUse", { status: "asking", note: "which db?", declared: "ask" }, false],
    ["ask", "PermissionRequest", { status: "parked", note: "blocked", declared: "park" }, false],
    ["fail", "StopFailure", { status: "awaiting", proposal: "merge", declared: "done" }, false],
    ["fail", "StopFailure", { status: "idle" }, false],
    ["fail", "StopFailure", { status: "active" }, true],
    ["turn", "UserPromptSubmit", { status: "active", declared: "done" }, true],
  ];
  for (const [action, event, fields, spawns] of cases) {
    test(`${event} with ${JSON.stringify(fields)} ${spawns ? "calls the binary" : "exits on the fast path, spawning nothing"}`, () => {
      sb = sandbox();
      const rec = seedRecord(sb.home, sb.repo, fields);
      const r = runHook(sb, rec, action, event);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe("");
      expect(r.called !== "").toBe(spawns);
      if (spawns) expect(r.called.trim()).toBe(`internal hook claude ${action} ${event}`);
    });
  }

  test("the binary a hook calls starts without JavaScriptCore's heap warm-up thread (the JIT stays: a hook may archive)", () => {
    sb = sandbox();
    const r = runHook(sb, seedRecord(sb.home, sb.repo, { status: "active" }), "stop", "Stop");
    expect(r.called.trim()).toBe("internal hook claude stop Stop");
    expect(r.jsc.trim()).toBe("warm-up 0, JIT unset");
  });

  test("a queued message for the session makes Stop call the binary", () => {
    sb = sandbox();
    const rec = seedRecord(sb.home, sb.repo, { status: "idle" });
    const dir = sessionPaths(projectStore(sb.repo, sb.home), rec.session_id).dir;
    writeFileSync(join(dir, "inbox.pending"), "");
    expect(runHook(sb, rec, "stop", "Stop").called).not.toBe("");
  });

  test("outside a spex session (no SPEX_RECORD) the hook does nothing", () => {
    const r = spawnSync("/bin/sh", [HOOK, "claude", "stop", "Stop"], { env: { PATH: "/nonexistent" }, encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
  });

  test("a subagent payload changes nothing", () => {
    sb = sandbox();
    const rec = seedRecord(sb.home, sb.repo, { status: "idle" });
    const r = sb.spex(["internal", "hook", "claude", "turn", "UserPromptSubmit"], {
      env: { SPEX_SESSION_ID: rec.session_id, SPEX_PROJECT_ROOT: sb.repo },
      input: JSON.stringify({ session_id: "x", agent_id: "sub-1" }),
    });
    expect(r.code).toBe(0);
    const after = JSON.parse(sb.spex(["session", "show", rec.session_id, "--json"]).stdout);
    expect(after.lifecycle).toBe("idle");
  });

  test("a hook that never closes stdin still records the change (stdin is read with a deadline)", async () => {
    sb = sandbox();
    const rec = seedRecord(sb.home, sb.repo, { status: "idle" });
    const child = spawn(process.env.SPEX_TEST_BIN || join(REPO_ROOT, "bin", "spex"), ["internal", "hook", "claude", "turn", "UserPromptSubmit"], {
      env: { ...sb.env, SPEX_SESSION_ID: rec.session_id, SPEX_PROJECT_ROOT: sb.repo },
      cwd: sb.repo,
      stdio: ["pipe", "ignore", "ignore"],
    });
    // A payload with no newline, and stdin left open as some agents do.
    child.stdin!.write('{"session_id":"abc"');
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    child.stdin!.destroy();
    expect(code).toBe(0);
    expect(JSON.parse(sb.spex(["session", "show", rec.session_id, "--json"]).stdout).lifecycle).toBe("active");
  });
});

describe("the git post-checkout hook", () => {
  test("is installed once, chains to the user's own hook, and stays quiet outside session worktrees", () => {
    sb = sandbox();
    const hooks = join(sb.repo, ".git", "hooks");
    mkdirSync(hooks, { recursive: true });
    const userLog = join(sb.dir, "user-hook.log");
    writeFileSync(join(hooks, "post-checkout"), `#!/bin/sh\necho "user hook $*" >> '${userLog}'\n`);
    chmodSync(join(hooks, "post-checkout"), 0o755);
    const c = JSON.parse(sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "one"]).stdout);
    sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "two"]);
    expect(readFileSync(join(hooks, "post-checkout"), "utf8")).toContain("spex-post-checkout");
    expect(readFileSync(join(hooks, "post-checkout.spex-chained"), "utf8")).toContain("user hook");
    // The user's hook ran for both worktree adds (chained), spex rendered nothing under the defer marker.
    expect(readFileSync(userLog, "utf8").trim().split("\n")).toHaveLength(2);
    // A checkout in the main checkout: the user's hook runs, spex does nothing and the checkout succeeds.
    sb.git(["checkout", "-q", "-b", "other"]);
    expect(readFileSync(userLog, "utf8").trim().split("\n")).toHaveLength(3);
    expect(c.session_id).toBeString();
  });

  test("a checkout inside a session worktree re-renders its agent hook config", () => {
    sb = sandbox();
    const c = JSON.parse(sb.spex(["session", "new", "--no-launch", "--launcher", "claude", "--json", "render me"], { env: { PATH: `${sb.dir}:${process.env.PATH}` } }).stdout ?? "{}");
    if (!c.worktree_path) {
      // claude is not on PATH here: use a config launcher that points the claude harness at sh.
      writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ launchers: { c: { harness: "claude", command: "sh" } } }));
    }
    const made = c.worktree_path ? c : JSON.parse(sb.spex(["session", "new", "--no-launch", "--launcher", "c", "--json", "render me"]).stdout);
    const settings = join(made.worktree_path, ".claude", "settings.local.json");
    require("node:fs").rmSync(settings);
    sb.git(["checkout", "-q", "-b", "moved"], made.worktree_path);
    expect(readFileSync(settings, "utf8")).toContain("spex-agent-hook");
  });
});

describe("permission dialogs, interrupts and native ids across harnesses", () => {
  const hook = (s: Sandbox, id: string, harness: string, action: string, event: string, payload: unknown) =>
    s.spex(["internal", "hook", harness, action, event], { env: { SPEX_SESSION_ID: id, SPEX_PROJECT_ROOT: s.repo }, input: JSON.stringify(payload) });
  const show = (s: Sandbox, id: string) => JSON.parse(s.spex(["session", "show", id, "--json"]).stdout);

  test("PermissionRequest exits on the fast path when already asking and calls the binary otherwise", () => {
    sb = sandbox();
    expect(runHook(sb, seedRecord(sb.home, sb.repo, { status: "asking" }), "ask", "PermissionRequest").called).toBe("");
    expect(runHook(sb, seedRecord(sb.home, sb.repo, { status: "active" }), "ask", "PermissionRequest").called.trim()).toBe("internal hook claude ask PermissionRequest");
  });

  test("claude's PermissionRequest makes the session asking at once, with the tool in the note", () => {
    sb = sandbox();
    const rec = seedRecord(sb.home, sb.repo, { status: "active" });
    expect(hook(sb, rec.session_id, "claude", "ask", "PermissionRequest", { session_id: "c", tool_name: "Bash", tool_input: { command: "touch x" } }).code).toBe(0);
    expect(show(sb, rec.session_id).record).toMatchObject({ status: "asking", note: "Bash: touch x" });
  });

  test("gemini's ToolPermission notification makes the session asking", () => {
    sb = sandbox();
    const rec = seedRecord(sb.home, sb.repo, { status: "active" });
    hook(sb, rec.session_id, "gemini", "notify", "Notification", { notification_type: "ToolPermission", message: "Allow execution of [Shell]?" });
    expect(show(sb, rec.session_id).record).toMatchObject({ status: "asking", note: "Allow execution of [Shell]?" });
  });

  test("codex's Interrupt ends the turn: the session is idle", () => {
    sb = sandbox();
    const rec = seedRecord(sb.home, sb.repo, { status: "active" });
    hook(sb, rec.session_id, "codex", "stop", "Interrupt", { session_id: "t", hook_event_name: "Interrupt" });
    expect(show(sb, rec.session_id).record.status).toBe("idle");
  });

  test("a SessionStart that comes after readiness (codex's first prompt) still records the native id", () => {
    sb = sandbox();
    const rec = seedRecord(sb.home, sb.repo, { status: "active", harness: "codex", harness_session_id: "" });
    hook(sb, rec.session_id, "codex", "start", "SessionStart", { session_id: "019a-codex-thread", source: "startup" });
    expect(show(sb, rec.session_id).record).toMatchObject({ harness_session_id: "019a-codex-thread", status: "active" });
  });
});

describe("a stopped session whose agent is gone (issue 21 item 11)", () => {
  const hook = (s: Sandbox, id: string, action: string, event: string, payload: unknown = {}) =>
    s.spex(["internal", "hook", "claude", action, event], { env: { SPEX_SESSION_ID: id, SPEX_PROJECT_ROOT: s.repo }, input: JSON.stringify(payload) });
  const record = (s: Sandbox, id: string) => JSON.parse(s.spex(["session", "show", id, "--json"]).stdout).record;

  test("a late UserPromptSubmit (or tool use, or a question) does not un-stop it, so a later StopFailure cannot mark it error", () => {
    sb = sandbox();
    const rec = seedRecord(sb.home, sb.repo, { status: "idle", stopped: true, agent_pid: "", agent_start: "" });
    for (const [action, event, payload] of [
      ["turn", "UserPromptSubmit", { prompt: "late" }],
      ["tool", "PreToolUse", { tool_name: "Bash" }],
      ["ask", "PermissionRequest", { tool_name: "Bash", tool_input: { command: "rm x" } }],
      ["fail", "StopFailure", { error: "rate limited" }],
    ] as const) {
      expect(hook(sb, rec.session_id, action, event, payload).code).toBe(0);
      expect([event, record(sb, rec.session_id)]).toMatchObject([event, { status: "idle", stopped: true, note: "" }]);
    }
  });

  test("a stop that lands after a turn's hook first looked, while the hook waits for the record, still stands", async () => {
    sb = sandbox();
    const agent = spawn("sleep", ["1000"], { stdio: "ignore" });
    try {
      const rec = seedRecord(sb.home, sb.repo, { status: "idle", stopped: false, agent_pid: String(agent.pid), agent_start: processIdentity(agent.pid!)!.start });
      const store = projectStore(sb.repo, sb.home);
      const held = await acquireLock(recordLockPath(store, rec.session_id));
      // The hook's first look finds a running session (its news counts), then it waits for the lock held here.
      const hooked = handleHookEvent(store, rec.session_id, "turn", { prompt: "typed just as the stop came" });
      // Under that lock, what a stop writes: stopped, the agent forgotten; and the agent is gone.
      const now = readSession(store, rec.session_id);
      if (now.kind !== "ok") throw new Error("the seeded record did not read");
      writeRecordFile(now.file, { ...now.record, stopped: true, stopped_by: "spex", agent_pid: "", agent_start: "" });
      agent.kill("SIGKILL");
      await held.release();
      await hooked;
      // Before the fix the turn landed on the stopped record: active and not stopped, with no agent (resume --all would relaunch it).
      expect(record(sb, rec.session_id)).toMatchObject({ status: "idle", stopped: true });
    } finally {
      agent.kill("SIGKILL");
    }
  });

  test("a stopped record whose own agent still runs (a conversation cleared in the same process) does start its new turn", () => {
    sb = sandbox();
    const agent = spawn("sleep", ["1000"], { stdio: "ignore" });
    try {
      const start = processIdentity(agent.pid!)!.start;
      const rec = seedRecord(sb.home, sb.repo, { status: "idle", stopped: true, agent_pid: String(agent.pid), agent_start: start });
      hook(sb, rec.session_id, "turn", "UserPromptSubmit", { prompt: "after /clear" });
      expect(record(sb, rec.session_id)).toMatchObject({ status: "active", stopped: false });
    } finally {
      agent.kill("SIGKILL");
    }
  });
});

describe("subagents", () => {
  test("a permission dialog raised inside a subagent still makes the session asking", () => {
    sb = sandbox();
    const rec = seedRecord(sb.home, sb.repo, { status: "active" });
    sb.spex(["internal", "hook", "claude", "ask", "PermissionRequest"], {
      env: { SPEX_SESSION_ID: rec.session_id, SPEX_PROJECT_ROOT: sb.repo },
      input: JSON.stringify({ session_id: "c", agent_id: "sub-1", agent_type: "general-purpose", tool_name: "Bash", tool_input: { command: "rm x" } }),
    });
    expect(JSON.parse(sb.spex(["session", "show", rec.session_id, "--json"]).stdout).record).toMatchObject({ status: "asking", note: "Bash: rm x" });
  });
});
