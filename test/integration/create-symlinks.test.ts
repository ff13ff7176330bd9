// A base branch is untrusted (DESIGN.md §13): a link it tracks where spex
// writes — the local config copy, a harness's hook config or a folder above
// it — refuses the session with unsafe_path before spex writes anything, and
// the file the link points at keeps every byte. The same holds for the files
// spex writes into the main checkout and its git folder.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox } from "../support/sandbox";
import { installFakeAgents } from "../support/agents";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

/** A branch `name` whose tree adds a link at `at` pointing to `target` (committed through a scratch worktree). */
function branchWithLink(s: Sandbox, name: string, at: string, target: string): void {
  const scratch = join(s.dir, `scratch-${name}`);
  s.git(["worktree", "add", "-q", "-b", name, scratch, "main"]);
  mkdirSync(join(scratch, at, ".."), { recursive: true });
  symlinkSync(target, join(scratch, at));
  s.git(["add", "-A"], scratch);
  s.git(["commit", "-q", "-m", `link ${at}`], scratch);
  s.git(["worktree", "remove", scratch]);
}

/** A file outside the repository that a planted link points at. */
function victim(s: Sandbox, name: string, text: string): string {
  const dir = join(s.dir, "outside");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

function nothingLeft(s: Sandbox): void {
  expect(s.git(["worktree", "list"]).trim().split("\n")).toHaveLength(1);
  expect(s.git(["branch", "--list", "spex/*"]).trim()).toBe("");
  expect(JSON.parse(s.spex(["session", "ls", "--json"]).stdout)).toEqual([]);
}

function refusedUnsafe(r: { code: number; stdout: string; stderr: string }, path: string): void {
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("[unsafe_path]");
  expect(JSON.parse(r.stdout).error.path).toEndWith(path);
}

describe("links planted by the base branch", () => {
  test("a tracked spexcode.local.json link never receives the user's local config", () => {
    sb = sandbox();
    const target = victim(sb, "victim.json", "victim bytes\n");
    branchWithLink(sb, "pr", "spexcode.local.json", target);
    writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ secret: "token-123" }));
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--base", "pr", "--json", "review the pr"]);
    expect(readFileSync(target, "utf8")).toBe("victim bytes\n");
    refusedUnsafe(r, "/spexcode.local.json");
    nothingLeft(sb);
  });

  for (const [harness, at, note] of [
    ["claude", ".claude/settings.local.json", "the settings file"],
    ["claude", ".claude", "the folder above it"],
    ["gemini", ".gemini/settings.json", "the settings file"],
    ["codex", ".codex/hooks.json", "the hooks file"],
  ] as const) {
    test(`${harness}: a link at ${note} (${at}) is refused and its target keeps every byte`, () => {
      sb = sandbox();
      installFakeAgents(sb, [harness]);
      const outsideDir = join(sb.dir, "outside-dir");
      mkdirSync(outsideDir, { recursive: true });
      const isFolder = !at.endsWith(".json");
      const target = isFolder ? outsideDir : victim(sb, "victim.json", '{"mine": true}\n');
      branchWithLink(sb, "pr", at, target);
      const r = sb.spex(["session", "new", "--no-launch", "--launcher", harness, "--base", "pr", "--json", "review the pr"]);
      if (isFolder) expect(readdirSync(outsideDir)).toEqual([]);
      else expect(readFileSync(target, "utf8")).toBe('{"mine": true}\n');
      refusedUnsafe(r, `/${at}`);
      nothingLeft(sb);
      // The main checkout's Codex hooks file is written only after the worktree passed.
      expect(existsSync(join(sb.repo, ".codex"))).toBe(false);
    });
  }

  test("a checkout inside a session worktree never lets post-checkout render through a link", () => {
    sb = sandbox();
    installFakeAgents(sb);
    const target = victim(sb, "victim.json", '{"mine": true}\n');
    branchWithLink(sb, "evil", ".claude/settings.local.json", target);
    const c = JSON.parse(sb.spex(["session", "new", "--no-launch", "--launcher", "claude", "--json", "work"]).stdout);
    // The agent switches its worktree to the untrusted branch; git replaces the rendered file with the link.
    sb.git(["checkout", "-q", "-f", "evil"], c.worktree_path);
    expect(readFileSync(target, "utf8")).toBe('{"mine": true}\n');
  });
});

describe("links in the main checkout and its git folder", () => {
  test("a hooks folder in the git folder that is a link is refused before anything is installed", () => {
    sb = sandbox();
    const outsideDir = join(sb.dir, "outside-hooks");
    mkdirSync(outsideDir, { recursive: true });
    rmSync(join(sb.repo, ".git", "hooks"), { recursive: true, force: true });
    symlinkSync(outsideDir, join(sb.repo, ".git", "hooks"));
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "task"]);
    expect(readdirSync(outsideDir)).toEqual([]);
    refusedUnsafe(r, "/.git/hooks");
    nothingLeft(sb);
  });

  test("a hooks folder in the work tree (core.hooksPath) that is a link gets nothing written through it", () => {
    sb = sandbox();
    const outsideDir = join(sb.dir, "outside-hooks");
    mkdirSync(outsideDir, { recursive: true });
    symlinkSync(outsideDir, join(sb.repo, ".githooks"));
    sb.git(["config", "core.hooksPath", ".githooks"]);
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "task"]);
    expect(r.code).toBe(0);
    expect(readdirSync(outsideDir)).toEqual([]);
  });

  test("an info/exclude that is a link is refused and its target keeps every byte", () => {
    sb = sandbox();
    const target = victim(sb, "exclude", "# theirs\n");
    mkdirSync(join(sb.repo, ".git", "info"), { recursive: true });
    const exclude = join(sb.repo, ".git", "info", "exclude");
    rmSync(exclude, { force: true });
    symlinkSync(target, exclude);
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "task"]);
    expect(readFileSync(target, "utf8")).toBe("# theirs\n");
    refusedUnsafe(r, "/info/exclude");
    nothingLeft(sb);
  });
});
