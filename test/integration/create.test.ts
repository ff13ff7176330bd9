import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox } from "../support/sandbox";
import { installFakeAgents } from "../support/agents";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

function sessionsDir(s: Sandbox): string {
  const projects = join(s.home, "projects");
  if (!existsSync(projects)) return "";
  const [key] = readdirSync(projects);
  return key ? join(projects, key, "sessions") : "";
}

function snapshot(s: Sandbox) {
  const dir = sessionsDir(s);
  const receipts = dir ? join(dir, "..", "receipts") : "";
  return {
    worktrees: s.git(["worktree", "list", "--porcelain"]),
    branches: s.git(["branch", "--list"]),
    sessions: dir && existsSync(dir) ? readdirSync(dir).sort() : [],
    receipts: receipts && existsSync(receipts) ? readdirSync(receipts).sort() : [],
  };
}

describe("spex session new", () => {
  test("--base pins the fork point to the tag even after main moved on, and stores the full sha", () => {
    sb = sandbox();
    sb.git(["tag", "v1"]);
    const tagSha = sb.git(["rev-parse", "v1^{commit}"]).trim();
    writeFileSync(join(sb.repo, "later.txt"), "later\n");
    sb.git(["add", "later.txt"]);
    sb.git(["commit", "-q", "-m", "later"]);
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--base", "v1", "--json", "pinned work"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const created = JSON.parse(r.stdout);
    expect(created.base).toBe(tagSha);
    expect(sb.git(["rev-parse", "HEAD"], created.worktree_path).trim()).toBe(tagSha);
    const text = readFileSync(join(sessionsDir(sb), created.session_id, "session.json"), "utf8");
    expect(text).toContain(`  "base": "${tagSha}",\n`);
  });

  test("without --base the worktree forks from main as it is now and the record has no base key", () => {
    sb = sandbox();
    const head = sb.git(["rev-parse", "main"]).trim();
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "unpinned work"]);
    expect(r.code).toBe(0);
    const created = JSON.parse(r.stdout);
    expect(sb.git(["rev-parse", "HEAD"], created.worktree_path).trim()).toBe(head);
    const text = readFileSync(join(sessionsDir(sb), created.session_id, "session.json"), "utf8");
    expect(text).not.toContain('"base"');
    expect("base" in created).toBe(false);
  });

  test("an unresolvable --base refuses with base_unresolvable and leaves nothing behind", () => {
    sb = sandbox();
    sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "first"]);
    const before = snapshot(sb);
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--base", "nope", "--json", "second"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("[base_unresolvable]");
    expect(JSON.parse(r.stdout).error.code).toBe("base_unresolvable");
    expect(snapshot(sb)).toEqual(before);
  });

  test("a launcher whose program is missing refuses with launcher_unresolvable before any git step", () => {
    sb = sandbox();
    writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ launchers: { ghost: { harness: "shell", command: "no-such-program-xyz --flag" } } }));
    const before = snapshot(sb);
    const r = sb.spex(["session", "new", "--launcher", "ghost", "task"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("[launcher_unresolvable]");
    expect(snapshot(sb)).toEqual(before);
  });

  test("outside a git checkout it refuses with not_a_git_repo", () => {
    sb = sandbox();
    const r = sb.spex(["session", "new", "--launcher", "shell", "task"], { cwd: sb.home });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("[not_a_git_repo]");
  });

  test("names: mentions and uuids never name the session; the first [[topic]] is its node", () => {
    sb = sandbox();
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "fix @other-session the [[auth]] bug 3f2a9c1e-1111-4222-8333-444455556666"]);
    const c = JSON.parse(r.stdout);
    expect(c.node).toBe("auth");
    expect(c.title).toBe("fix the auth bug");
    expect(c.branch).toBe(`spex/auth-${c.session_id.slice(0, 4)}`);
    expect(c.worktree_path.endsWith(`/.worktrees/auth-${c.session_id.slice(0, 4)}`)).toBe(true);

    const cjk = JSON.parse(sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "修复登录页面的错误"]).stdout);
    expect(cjk.branch).toBe(`spex/修复登录页面的错误-${cjk.session_id.slice(0, 4)}`);

    const only = JSON.parse(sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "@alice [[ ]] 3f2a9c1e-1111-4222-8333-444455556666"]).stdout);
    expect(only.branch).toBe(`spex/session-${only.session_id.slice(0, 4)}`);
  });

  test("--json returns the whole record and the full prompt; ls carries only a one-line preview", () => {
    sb = sandbox();
    const prompt = "first line\n" + "x".repeat(5000) + "\nlast line";
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "--prompt-file", "-"], { input: prompt });
    const c = JSON.parse(r.stdout);
    expect(c.prompt).toBe(prompt);
    expect(c.session_id).toBeString();
    const rows = JSON.parse(sb.spex(["session", "ls", "--json"]).stdout);
    expect(rows[0].preview.length).toBeLessThanOrEqual(100);
    expect(rows[0].preview.startsWith("first line")).toBe(true);
    expect(JSON.stringify(rows)).not.toContain("last line");
    const show = JSON.parse(sb.spex(["session", "show", c.session_id.slice(0, 8), "--json"]).stdout);
    expect(show.prompt).toBe(prompt);
  });

  test("spexcode.local.json is copied into the new worktree and .worktrees is excluded", () => {
    sb = sandbox();
    writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ branchPrefix: "mine/" }));
    const c = JSON.parse(sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "local"]).stdout);
    expect(c.branch.startsWith("mine/")).toBe(true);
    expect(readFileSync(join(c.worktree_path, "spexcode.local.json"), "utf8")).toContain("mine/");
    expect(readFileSync(join(sb.repo, ".git", "info", "exclude"), "utf8")).toContain("/.worktrees/");
    expect(sb.git(["status", "--porcelain"])).not.toContain(".worktrees");
  });

  test("from inside a linked worktree, new resolves the main checkout", () => {
    sb = sandbox();
    const first = JSON.parse(sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "first"]).stdout);
    const second = JSON.parse(sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "second"], { cwd: first.worktree_path }).stdout);
    expect(second.project_root).toBe(sb.repo);
    expect(second.worktree_path.startsWith(join(sb.repo, ".worktrees"))).toBe(true);
  });

  test("--no-queue: max_active_reached refuses a launch beyond sessions.maxActive and makes nothing", () => {
    sb = sandbox();
    writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ sessions: { maxActive: 1 } }));
    expect(sb.spex(["session", "new", "--launcher", "shell", "one"]).code).toBe(0);
    const before = snapshot(sb);
    const r = sb.spex(["session", "new", "--no-queue", "--launcher", "shell", "two"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("[max_active_reached]");
    expect(snapshot(sb)).toEqual(before);
  });

  test("claude hooks are merged into the user's settings, never clobbering them", () => {
    sb = sandbox();
    installFakeAgents(sb);
    // A tracked settings file the user already has in the repo.
    const userSettings = { permissions: { allow: ["Bash(ls)"] }, hooks: { Stop: [{ hooks: [{ type: "command", command: "echo user-stop" }] }] } };
    require("node:fs").mkdirSync(join(sb.repo, ".claude"), { recursive: true });
    writeFileSync(join(sb.repo, ".claude", "settings.local.json"), JSON.stringify(userSettings));
    sb.git(["add", "-f", ".claude/settings.local.json"]);
    sb.git(["commit", "-q", "-m", "user settings"]);
    const c = JSON.parse(sb.spex(["session", "new", "--no-launch", "--launcher", "claude", "--json", "merge"]).stdout);
    const settings = JSON.parse(readFileSync(join(c.worktree_path, ".claude", "settings.local.json"), "utf8"));
    expect(settings.permissions).toEqual(userSettings.permissions);
    const stopCommands = settings.hooks.Stop.flatMap((g: any) => g.hooks.map((h: any) => h.command));
    expect(stopCommands).toContain("echo user-stop");
    expect(stopCommands.filter((c: string) => c.includes("spex-agent-hook"))).toHaveLength(1);
    for (const e of ["SessionStart", "UserPromptSubmit", "PreToolUse", "Notification", "Stop", "StopFailure", "SessionEnd"]) {
      expect(settings.hooks[e]).toBeDefined();
    }
  });
});

describe("spex session new without tmux", () => {
  test("refuses with tmux_missing before anything is made; --no-launch still works", () => {
    sb = sandbox();
    const bin = join(sb.dir, "no-tmux-bin");
    require("node:fs").mkdirSync(bin);
    // ps: what the process table is read with under the portable backend (make test-portable).
    for (const tool of ["sh", "git", "ps"]) {
      const found = require("node:child_process").spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).stdout.trim();
      require("node:fs").symlinkSync(found, join(bin, tool));
    }
    const before = snapshot(sb);
    const r = sb.spex(["session", "new", "--launcher", "shell", "--json", "needs tmux"], { env: { PATH: bin } });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error.code).toBe("tmux_missing");
    expect(snapshot(sb)).toEqual(before);
    expect(sb.spex(["session", "new", "--launcher", "shell", "--no-launch", "not launched"], { env: { PATH: bin } }).code).toBe(0);
  });
});
