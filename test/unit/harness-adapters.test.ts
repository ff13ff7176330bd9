// What each harness adapter declares: its hook event → action map, readiness,
// launch/resume argv, and the hook config (and Codex trust) it renders.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HOOK_ACTIONS, HOOK_MARKER, HARNESS_NAMES, codexHookTrust, harnessAdapter, spawnOptionsFor, upsertCodexTrust } from "../../lib/harness";
import type { SpexError } from "../../lib/errors";
import { askNote } from "../../lib/hooks/handle";
import { cleanEnv, makeRepo } from "../support/sandbox";

const command = (action: string, event: string) => `sh /h/${HOOK_MARKER}.sh x ${action} ${event}`;

describe("hook event maps", () => {
  test("every adapter maps only to canonical actions", () => {
    for (const name of HARNESS_NAMES) for (const action of Object.values(harnessAdapter(name).hookEvents)) expect(HOOK_ACTIONS).toContain(action);
  });

  test("claude: a permission dialog is asking at once (PermissionRequest), an approved tool's end is active again", () => {
    expect(harnessAdapter("claude").hookEvents).toEqual({
      SessionStart: "start",
      UserPromptSubmit: "turn",
      PreToolUse: "tool",
      PermissionRequest: "ask",
      PostToolUse: "tool",
      Notification: "notify",
      Stop: "stop",
      StopFailure: "fail",
      SessionEnd: "end",
    });
  });

  test("codex: only events Codex 0.171 has; its Interrupt hook ends the turn like Stop", () => {
    expect(harnessAdapter("codex").hookEvents).toEqual({
      SessionStart: "start",
      UserPromptSubmit: "turn",
      PreToolUse: "tool",
      PermissionRequest: "ask",
      PostToolUse: "tool",
      Stop: "stop",
      Interrupt: "stop",
      SessionEnd: "end",
    });
  });

  test("gemini: BeforeAgent/AfterAgent bound the turn, its ToolPermission notification asks", () => {
    expect(harnessAdapter("gemini").hookEvents).toEqual({
      SessionStart: "start",
      BeforeAgent: "turn",
      BeforeTool: "tool",
      AfterTool: "tool",
      Notification: "notify",
      AfterAgent: "stop",
      SessionEnd: "end",
    });
  });
});

describe("readiness, argv and submit timing", () => {
  test("codex is ready on a live pid (its SessionStart waits for the first prompt); claude and gemini on SessionStart", () => {
    expect(harnessAdapter("codex").readiness).toBe("pid");
    expect(harnessAdapter("claude").readiness).toBe("hook");
    expect(harnessAdapter("gemini").readiness).toBe("hook");
    expect(harnessAdapter("shell").readiness).toBe("pid");
  });

  test("launch and resume argv", () => {
    expect(harnessAdapter("claude").launchArgs({ nativeId: "u-1" })).toEqual(["--session-id", "u-1"]);
    expect(harnessAdapter("claude").resumeArgs("u-1")).toEqual(["--resume", "u-1"]);
    expect(harnessAdapter("codex").launchArgs({ nativeId: "" })).toEqual(["--no-daemon"]);
    expect(harnessAdapter("codex").resumeArgs("t-1")).toEqual(["resume", "--no-daemon", "t-1"]);
    expect(harnessAdapter("gemini").launchArgs({ nativeId: "g-1" })).toEqual(["--session-id", "g-1", "-i"]);
    expect(harnessAdapter("gemini").assignNativeId!()).toMatch(/^[0-9a-f-]{36}$/);
    expect(harnessAdapter("codex").assignNativeId).toBeUndefined();
    expect(harnessAdapter("gemini").resumeArgs("g-1")).toEqual(["--resume", "g-1"]);
  });

  test("spawn options map onto each CLI's own flags, on launch and on resume", () => {
    const spawn = { model: "m-1", effort: "high" };
    expect(harnessAdapter("claude").launchArgs({ nativeId: "u-1", ...spawn })).toEqual(["--session-id", "u-1", "--model", "m-1", "--effort", "high"]);
    expect(harnessAdapter("claude").resumeArgs("u-1", spawn)).toEqual(["--resume", "u-1", "--model", "m-1", "--effort", "high"]);
    expect(harnessAdapter("codex").launchArgs({ nativeId: "", ...spawn })).toEqual(["--no-daemon", "-m", "m-1", "-c", 'model_reasoning_effort="high"']);
    // The thread id stays the last operand of `codex resume`.
    expect(harnessAdapter("codex").resumeArgs("t-1", spawn)).toEqual(["resume", "--no-daemon", "-m", "m-1", "-c", 'model_reasoning_effort="high"', "t-1"]);
    // -i takes the prompt as its value: the model flag goes before it.
    expect(harnessAdapter("gemini").launchArgs({ nativeId: "g-1", model: "m-1" })).toEqual(["--session-id", "g-1", "-m", "m-1", "-i"]);
    expect(harnessAdapter("gemini").resumeArgs("g-1", { model: "m-1" })).toEqual(["--resume", "g-1", "-m", "m-1"]);
  });

  test("a spawn option a harness has no flag for, or a value it would misread, is a usage error naming what is accepted", () => {
    const refusal = (harness: string, o: { model?: string; effort?: string }) => {
      try {
        spawnOptionsFor(harness, o);
        return undefined;
      } catch (e) {
        return { code: (e as SpexError).code, message: (e as SpexError).message, hint: (e as SpexError).hint, exit: (e as SpexError).exitCode };
      }
    };
    expect(refusal("shell", { model: "x" })).toMatchObject({ code: "usage", exit: 2, hint: expect.stringContaining("claude, codex, gemini") });
    expect(refusal("gemini", { effort: "high" })).toMatchObject({ code: "usage", hint: expect.stringContaining("claude, codex") });
    expect(refusal("claude", { effort: "turbo" })).toMatchObject({ code: "usage", message: expect.stringContaining("low, medium, high, xhigh, max") });
    expect(refusal("codex", { effort: "max" })).toMatchObject({ code: "usage", message: expect.stringContaining("none, minimal, low, medium, high, xhigh") });
    expect(refusal("claude", { model: "--dangerously-skip-permissions" })).toMatchObject({ code: "usage" });
    expect(refusal("claude", { model: "a b" })).toMatchObject({ code: "usage" });
    expect(refusal("claude", { model: "claude-sonnet-4-5", effort: "" })).toBeUndefined();
    expect(spawnOptionsFor("codex", { model: "openai/gpt-oss-120b", effort: "minimal" })).toEqual({ model: "openai/gpt-oss-120b", effort: "minimal" });
  });

  test("gemini needs a quiet gap before Enter (an Enter within 30 ms is a newline)", () => {
    expect(harnessAdapter("gemini").submitQuietMs).toBeGreaterThanOrEqual(100);
    expect(harnessAdapter("claude").submitQuietMs).toBe(0);
  });
});

describe("rendering codex hooks", () => {
  let dir: string;
  let worktree: string;
  let codexHome: string;
  let ctx: { home: string; env: NodeJS.ProcessEnv };
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), "spex-codex-render-")));
    worktree = join(dir, "wt");
    codexHome = join(dir, "codex");
    mkdirSync(worktree);
    mkdirSync(codexHome);
    ctx = { home: join(dir, "spex"), env: { CODEX_HOME: codexHome } };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const hooksFile = () => join(worktree, ".codex", "hooks.json");
  const config = () => readFileSync(join(codexHome, "config.toml"), "utf8");

  test("writes hooks.json with explicit timeouts (3 s where Codex clamps) and trusts exactly spex's handlers", async () => {
    const user = { type: "command", command: "echo mine", timeout: 10 };
    mkdirSync(join(worktree, ".codex"));
    writeFileSync(hooksFile(), JSON.stringify({ hooks: { Stop: [{ hooks: [user] }] } }));
    writeFileSync(join(codexHome, "config.toml"), 'model = "o3"\n');
    expect(await harnessAdapter("codex").renderHooks(worktree, command, ctx)).toEqual([".codex/hooks.json"]);

    const doc = JSON.parse(readFileSync(hooksFile(), "utf8"));
    expect(doc.hooks.Stop[0].hooks).toEqual([user]);
    expect(doc.hooks.Stop[1].hooks).toEqual([{ type: "command", command: command("stop", "Stop"), timeout: 600 }]);
    expect(doc.hooks.SessionEnd[0].hooks[0].timeout).toBe(3);
    expect(doc.hooks.Interrupt[0].hooks[0].timeout).toBe(3);

    // The config holds exactly the trust Codex would record for spex's handlers, after the user's bytes.
    const expected = Object.entries(doc.hooks as Record<string, { hooks: { command: string; timeout: number }[] }[]>).flatMap(([event, groups]) =>
      groups.flatMap((g, group) =>
        g.hooks
          .filter((h) => h.command.includes(HOOK_MARKER))
          .map((h, handler) => codexHookTrust({ hooksFile: hooksFile(), event, command: h.command, timeout: h.timeout, group, handler })),
      ),
    );
    expect(expected).toHaveLength(8);
    expect(expected.map((e) => e.key)).toContain(`${hooksFile()}:stop:1:0`);
    expect(config()).toBe(upsertCodexTrust('model = "o3"\n', expected).text);
    expect(config()).not.toContain(":stop:0:0");
  });

  test("rendering again leaves config.toml as it was", async () => {
    await harnessAdapter("codex").renderHooks(worktree, command, ctx);
    const first = config();
    await harnessAdapter("codex").renderHooks(worktree, command, ctx);
    expect(config()).toBe(first);
  });

  test("a new hook command (a new spex) replaces the trusted hashes in place", async () => {
    await harnessAdapter("codex").renderHooks(worktree, command, ctx);
    const first = config();
    await harnessAdapter("codex").renderHooks(worktree, (a, e) => command(a, e).replace("/h/", "/h2/"), ctx);
    const second = config();
    expect(second).not.toBe(first);
    expect(second.split("\n").length).toBe(first.split("\n").length);
    expect(second.match(/^\[hooks\.state\./gm)).toHaveLength(8);
  });
});

describe("rendering codex hooks into a linked worktree", () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("the main checkout's .codex/hooks.json (the file Codex reads for its worktrees) gets spex's hooks and the trust; the user's hooks there are kept and not trusted", async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), "spex-codex-wt-")));
    const env = cleanEnv();
    const main = makeRepo(join(dir, "repo"), env);
    const wt = join(main, ".worktrees", "wt");
    spawnSync("git", ["worktree", "add", "-q", "-b", "b1", wt], { cwd: main, env });
    const codexHome = join(dir, "codex");
    await harnessAdapter("codex").renderHooks(wt, command, { home: join(dir, "spex"), env: { CODEX_HOME: codexHome } });
    const shared = join(main, ".codex", "hooks.json");
    expect(readFileSync(shared, "utf8")).toBe(readFileSync(join(wt, ".codex", "hooks.json"), "utf8"));
    const config = readFileSync(join(codexHome, "config.toml"), "utf8");
    expect(config).toContain(`[hooks.state."${shared}:stop:0:0"]`);
    expect(config).not.toContain(wt);
    // Made by spex in the user's checkout: excluded from git status.
    expect(spawnSync("git", ["status", "--porcelain"], { cwd: main, env, encoding: "utf8" }).stdout).not.toContain(".codex");

    // The user's own hooks in that file stay first and untrusted; spex's move to group 1 and are trusted there.
    const doc = JSON.parse(readFileSync(shared, "utf8"));
    doc.hooks.Stop.unshift({ hooks: [{ type: "command", command: "echo mine", timeout: 5 }] });
    writeFileSync(shared, JSON.stringify(doc));
    await harnessAdapter("codex").renderHooks(wt, command, { home: join(dir, "spex"), env: { CODEX_HOME: codexHome } });
    const after = JSON.parse(readFileSync(shared, "utf8"));
    expect(after.hooks.Stop[0].hooks[0].command).toBe("echo mine");
    expect(readFileSync(join(codexHome, "config.toml"), "utf8")).toContain(`[hooks.state."${shared}:stop:1:0"]`);
  });
});

describe("the note of a permission request", () => {
  test("names the tool and what it would run", () => {
    expect(askNote({ tool_name: "Bash", tool_input: { command: "touch  x\nrm y", description: "probe" } })).toBe("Bash: touch x rm y");
    expect(askNote({ tool_name: "Edit", tool_input: { file_path: "/a/b.ts" } })).toBe("Edit: /a/b.ts");
    expect(askNote({})).toBeUndefined();
    expect(askNote({ tool_name: "Bash", tool_input: { command: "x".repeat(500) } })!.length).toBe(200);
  });
});
