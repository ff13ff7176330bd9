// A user's git hook survives (DESIGN.md §13): whatever post-checkout hook
// spex finds in its place — the user's, husky's, pre-commit's, also one
// installed after spex's own — is kept byte for byte and run first, and
// `doctor` names the chain.
import { afterEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CHAIN_LINE } from "../../lib/hooks/post-checkout";
import { installFakeAgents } from "../support/agents";
import { SPEX_BIN, type Sandbox, sandbox } from "../support/sandbox";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

const hooks = (s: Sandbox) => join(s.repo, ".git", "hooks");

/** A hook script that logs its name (and how deep it was called) to ran.log. */
function userHook(s: Sandbox, name: string, extra = ""): string {
  const text = `#!/bin/sh\n# ${name}: the user's own hook\necho ${name} >> '${join(s.dir, "ran.log")}'\n${extra}`;
  writeFileSync(join(hooks(s), "post-checkout"), text);
  chmodSync(join(hooks(s), "post-checkout"), 0o755);
  return text;
}

function ran(s: Sandbox): string[] {
  const log = join(s.dir, "ran.log");
  return existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [];
}

function newSession(s: Sandbox, prompt: string): void {
  const r = s.spex(["session", "new", "--no-launch", "--launcher", "shell", prompt]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
}

/** Every byte of `text` is still in some file of the hooks folder. */
function kept(s: Sandbox, text: string): boolean {
  return readdirSync(hooks(s)).some((n) => readFileSync(join(hooks(s), n), "utf8") === text);
}

function hookCheck(s: Sandbox): { ok: boolean; detail: string; code?: string } {
  return JSON.parse(s.spex(["doctor", "--json"]).stdout).checks.find((c: any) => c.name === "post-checkout hook");
}

describe("the post-checkout chain", () => {
  test("a hook installed after spex's own is chained at the next new, never replaced; both run on a checkout", () => {
    sb = sandbox();
    const first = userHook(sb, "first");
    newSession(sb, "one");
    // husky or the user installs another hook over spex's.
    const later = userHook(sb, "later");
    const replaced = hookCheck(sb);
    newSession(sb, "two");
    expect(kept(sb, first)).toBe(true);
    expect(kept(sb, later)).toBe(true);
    // doctor said so in between.
    expect(replaced.ok).toBe(false);
    expect(replaced.detail).toContain("is another hook");
    writeFileSync(join(sb.dir, "ran.log"), "");
    sb.git(["checkout", "-q", "-b", "elsewhere"]);
    expect(ran(sb)).toEqual(["first", "later"]);
    const check = hookCheck(sb);
    expect(check.ok).toBe(true);
    expect(check.detail).toContain("post-checkout.spex-chained, post-checkout.spex-chained-2");
  });

  test("a hook that runs its predecessor (pre-commit's migration mode) is chained without running anything twice", () => {
    sb = sandbox();
    userHook(sb, "first");
    newSession(sb, "one");
    // pre-commit moves the hook it finds (spex's) to post-checkout.legacy and runs it from its own.
    renameSync(join(hooks(sb), "post-checkout"), join(hooks(sb), "post-checkout.legacy"));
    const precommit = userHook(sb, "precommit", `here=$(cd "$(dirname "$0")" && pwd)\n[ -x "$here/post-checkout.legacy" ] && "$here/post-checkout.legacy" "$@"\nexit 0\n`);
    newSession(sb, "two");
    expect(kept(sb, precommit)).toBe(true);
    writeFileSync(join(sb.dir, "ran.log"), "");
    sb.git(["checkout", "-q", "-b", "elsewhere"]);
    expect(ran(sb)).toEqual(["first", "precommit"]);
  });

  test("installing again with nothing new changes no byte of the hooks folder", () => {
    sb = sandbox();
    userHook(sb, "first");
    newSession(sb, "one");
    const snapshot = () => readdirSync(hooks(sb)).sort().map((n) => [n, readFileSync(join(hooks(sb), n), "utf8")]);
    const before = snapshot();
    newSession(sb, "two");
    expect(snapshot()).toEqual(before);
  });
});

describe("the hooks folder is the one git itself uses, whatever config names it", () => {
  /** A user's own post-checkout in `dir`, logging to ran.log; returns its text. */
  function hookIn(s: Sandbox, dir: string): string {
    mkdirSync(dir, { recursive: true });
    const text = `#!/bin/sh\necho mine >> '${join(s.dir, "ran.log")}'\n`;
    writeFileSync(join(dir, "post-checkout"), text);
    chmodSync(join(dir, "post-checkout"), 0o755);
    return text;
  }
  const listing = (dir: string) => readdirSync(dir).sort().map((n) => [n, readFileSync(join(dir, n), "utf8")]);

  test("a global core.hooksPath (GIT_CONFIG_GLOBAL) is the user's shared folder: spex writes nothing there nor in the unused .git/hooks, and doctor says why and how to chain (hooks_path_outside_repo)", () => {
    sb = sandbox();
    const shared = join(sb.dir, "userhome", ".githooks");
    const text = hookIn(sb, shared);
    const global = join(sb.dir, "gitconfig");
    writeFileSync(global, `[core]\n\thooksPath = ~/.githooks\n`);
    sb.env.GIT_CONFIG_GLOBAL = global;
    newSession(sb, "one");
    expect(listing(shared)).toEqual([["post-checkout", text]]);
    expect(existsSync(join(hooks(sb), "post-checkout"))).toBe(false);
    const check = hookCheck(sb);
    expect(check).toMatchObject({ ok: false, code: "hooks_path_outside_repo" });
    expect(check.detail).toContain(join(shared, "post-checkout"));
    expect(check.detail).toContain(CHAIN_LINE);
    writeFileSync(join(sb.dir, "ran.log"), "");
    sb.git(["checkout", "-q", "-b", "elsewhere"]);
    expect(ran(sb)).toEqual(["mine"]);
  });

  test("a core.hooksPath outside the repository set in its own config gets nothing either, and is not made", () => {
    sb = sandbox();
    const outside = join(sb.dir, "my-hooks", "git");
    sb.git(["config", "core.hooksPath", outside]);
    newSession(sb, "one");
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(join(hooks(sb), "post-checkout"))).toBe(false);
    expect(hookCheck(sb)).toMatchObject({ ok: false, code: "hooks_path_outside_repo" });
  });

  test("a hooks folder in the git folder named through an include, quoted, gets the hook where git runs it, chaining the user's", () => {
    sb = sandbox();
    const dir = join(sb.repo, ".git", "my hooks");
    const text = hookIn(sb, dir);
    writeFileSync(join(sb.dir, "extra.gitconfig"), `[core]\n\thooksPath = ".git/my hooks"\n`);
    sb.git(["config", "include.path", join(sb.dir, "extra.gitconfig")]);
    newSession(sb, "one");
    expect(readFileSync(join(dir, "post-checkout"), "utf8")).toContain("spex-post-checkout");
    expect(readFileSync(join(dir, "post-checkout.spex-chained"), "utf8")).toBe(text);
    expect(existsSync(join(hooks(sb), "post-checkout"))).toBe(false);
    expect(hookCheck(sb).ok).toBe(true);
    writeFileSync(join(sb.dir, "ran.log"), "");
    sb.git(["checkout", "-q", "-b", "elsewhere"]);
    expect(ran(sb)).toEqual(["mine"]);
  });
});

describe("a hooks folder inside the work tree (husky: core.hooksPath=.husky, a tracked .husky/post-checkout)", () => {
  /** The repository as husky leaves it: the hook committed, the config pointing at its folder. */
  function husky(s: Sandbox, extra = ""): string {
    const dir = join(s.repo, ".husky");
    mkdirSync(dir);
    const text = `#!/bin/sh\necho husky >> '${join(s.dir, "ran.log")}'\n${extra}`;
    writeFileSync(join(dir, "post-checkout"), text);
    chmodSync(join(dir, "post-checkout"), 0o755);
    s.git(["add", ".husky"]);
    s.git(["commit", "-q", "-m", "husky"]);
    s.git(["config", "core.hooksPath", ".husky"]);
    return text;
  }
  const folder = (s: Sandbox) => readdirSync(join(s.repo, ".husky")).sort().map((n) => [n, readFileSync(join(s.repo, ".husky", n), "utf8")]);

  test("is never written: the checkout stays clean, the user's hook keeps its bytes and runs, and doctor says why and how to chain (hooks_path_in_worktree)", () => {
    sb = sandbox();
    const text = husky(sb);
    newSession(sb, "one");
    expect(folder(sb)).toEqual([["post-checkout", text]]);
    expect(sb.git(["status", "--porcelain"])).toBe("");
    const check = hookCheck(sb);
    expect(check).toMatchObject({ ok: false, code: "hooks_path_in_worktree" });
    expect(check.detail).toContain(CHAIN_LINE);
    expect(sb.spex(["doctor"]).stdout).toContain("[hooks_path_in_worktree]");
    writeFileSync(join(sb.dir, "ran.log"), "");
    sb.git(["checkout", "-q", "-b", "elsewhere"]);
    expect(ran(sb)).toEqual(["husky"]);
  });

  test("the line doctor gives, in the project's own hook, re-renders a session worktree's hook config after a checkout there, and changes nothing where spex is not installed", () => {
    sb = sandbox();
    installFakeAgents(sb);
    const onPath = join(sb.dir, "spex-bin");
    mkdirSync(onPath);
    symlinkSync(SPEX_BIN, join(onPath, "spex"));
    const withoutSpex = sb.env.PATH!;
    sb.env.PATH = `${onPath}:${withoutSpex}`;
    husky(sb, `${CHAIN_LINE}\n`);
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "claude", "--json", "work"]);
    expect(r.stderr).toBe("");
    const worktree = JSON.parse(r.stdout).worktree_path as string;
    const rendered = join(worktree, ".claude", "settings.local.json");
    const bytes = readFileSync(rendered, "utf8");
    rmSync(rendered);
    sb.git(["checkout", "-q", "-b", "agent-branch"], worktree);
    expect(readFileSync(rendered, "utf8")).toBe(bytes);
    // A collaborator without spex: the same hook line does nothing and fails nothing.
    const plain = spawnSync("git", ["checkout", "-q", "-b", "no-spex"], { cwd: sb.repo, env: { ...sb.env, PATH: withoutSpex }, encoding: "utf8" });
    expect({ code: plain.status, stderr: plain.stderr }).toEqual({ code: 0, stderr: "" });
  });

  test("a hook an older spex put there is reported with the command that puts the user's back", () => {
    sb = sandbox();
    const text = husky(sb);
    // What an older spex left: the user's hook renamed, its own in its place.
    renameSync(join(sb.repo, ".husky", "post-checkout"), join(sb.repo, ".husky", "post-checkout.spex-chained"));
    writeFileSync(join(sb.repo, ".husky", "post-checkout"), "#!/bin/sh\n# spex-post-checkout\n");
    const check = hookCheck(sb);
    expect(check).toMatchObject({ ok: false, code: "hooks_path_in_worktree" });
    const mv = /`(mv -f [^`]+)`/.exec(check.detail)?.[1];
    expect(mv).toBeDefined();
    expect(spawnSync("sh", ["-c", mv!], { cwd: sb.repo, encoding: "utf8" }).status).toBe(0);
    expect(folder(sb)).toEqual([["post-checkout", text]]);
    expect(sb.git(["status", "--porcelain"])).toBe("");
  });
});
