// A git older than spex needs (Ubuntu 22.04 ships 2.34, Debian 11 2.30):
// `git merge-tree --write-tree` does not exist there. Only the old git is
// faked, by a wrapper first on PATH that reports 2.34.1 and answers
// merge-tree --write-tree and worktree list -z (2.36) with a usage text and
// status 129 as that git does; everything else runs the real git.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { whichSync } from "../../lib/proc/which";
import { type Sandbox, sandbox } from "../support/sandbox";
import { commitFiles, newSession, parse, refOf } from "../support/review";
import { http, serve } from "./backend-support";

let sb: Sandbox;
let oldGitEnv: Record<string, string>;
beforeEach(() => {
  sb = sandbox();
  const bin = join(sb.dir, "old-git-bin");
  mkdirSync(bin);
  const real = whichSync("git");
  if (!real) throw new Error("git is not on PATH");
  writeFileSync(
    join(bin, "git"),
    `#!/bin/sh
case "$1" in
  version|--version) echo 'git version 2.34.1'; exit 0 ;;
  worktree)
    if [ "$2" = list ]; then
      for a in "$@"; do
        if [ "$a" = -z ]; then echo "error: unknown switch z" >&2; echo 'usage: git worktree list [<options>]' >&2; exit 129; fi
      done
    fi ;;
  merge-tree)
    for a in "$@"; do
      if [ "$a" = --write-tree ]; then echo 'usage: git merge-tree <base-tree> <branch1> <branch2>' >&2; exit 129; fi
    done ;;
esac
exec '${real}' "$@"
`,
  );
  chmodSync(join(bin, "git"), 0o755);
  oldGitEnv = { PATH: `${bin}:${sb.env.PATH}` };
});
afterEach(() => sb.cleanup());

/** A git that is 2.34 while `<bin>/old` exists and the real one once it is gone: an upgrade under a running process. */
function upgradableGit(): { env: Record<string, string>; upgrade: () => void } {
  const bin = join(sb.dir, "upgradable-git-bin");
  mkdirSync(bin);
  const real = whichSync("git")!;
  writeFileSync(
    join(bin, "git"),
    `#!/bin/sh
if [ -e '${bin}/old' ]; then
  case "$1" in
    version|--version) echo 'git version 2.34.1'; exit 0 ;;
    merge-tree) echo 'usage: git merge-tree <base-tree> <branch1> <branch2>' >&2; exit 129 ;;
  esac
fi
exec '${real}' "$@"
`,
  );
  chmodSync(join(bin, "git"), 0o755);
  writeFileSync(join(bin, "old"), "");
  return { env: { PATH: `${bin}:${sb.env.PATH}` }, upgrade: () => rmSync(join(bin, "old")) };
}

describe("git older than 2.38", () => {
  test("a running spex serve refuses a merge on the old git and merges once git is upgraded, without a restart", async () => {
    const git = upgradableGit();
    const s = newSession(sb, "add a feature");
    commitFiles(sb, s.worktree, { "feature.txt": "feature\n" }, "add feature");
    commitFiles(sb, sb.repo, { "other.txt": "other\n" }, "meanwhile on main");
    const be = await serve(sb, { env: git.env });
    try {
      const refused = await http(be.url, `/api/sessions/${s.id}/merge`, { body: {}, token: be.token });
      expect(refused.json.error.code).toBe("git_too_old");
      git.upgrade();
      const merged = await http(be.url, `/api/sessions/${s.id}/merge`, { body: {}, token: be.token });
      expect(merged.status).toBe(200);
      expect(merged.json).toMatchObject({ landing: "merge-commit" });
    } finally {
      await be.stop();
    }
  });


  test("merge refuses up front with git_too_old naming the version needed, and changes nothing", () => {
    const s = newSession(sb, "add a feature");
    const tip = commitFiles(sb, s.worktree, { "feature.txt": "feature\n" }, "add feature");
    const moved = commitFiles(sb, sb.repo, { "other.txt": "other\n" }, "meanwhile on main");
    const r = sb.spex(["session", "merge", s.id, "--json"], { env: oldGitEnv });
    expect(r.code).toBe(1);
    const err = parse(r.stdout).error;
    expect(err.code).toBe("git_too_old");
    expect(err.message).toContain("2.38");
    expect(err.message).toContain("git version 2.34.1");
    expect(err.hint).toContain("git 2.38 or newer");
    expect(r.stderr).not.toContain("usage:");
    expect(refOf(sb, "refs/heads/main")).toBe(moved);
    expect(refOf(sb, `refs/heads/${s.branch}`)).toBe(tip);
    // With a git new enough, the same merge goes through.
    const ok = sb.spex(["session", "merge", s.id, "--json"]);
    expect(ok.stderr).toBe("");
    expect(parse(ok.stdout)).toMatchObject({ landing: "merge-commit" });
  });

  test("new refuses with git_too_old before making anything: a session that could be neither merged nor closed", () => {
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "on an old git"], { env: oldGitEnv });
    expect(r.code).toBe(1);
    expect(parse(r.stdout).error).toMatchObject({ code: "git_too_old", hint: expect.stringContaining("git 2.38 or newer") });
    expect(sb.git(["branch", "--list"]).trim()).toBe("* main");
    expect(existsSync(join(sb.repo, ".worktrees"))).toBe(false);
    expect(parse(sb.spex(["session", "ls", "--all", "--json"]).stdout)).toEqual([]);
  });

  test("close refuses with git_too_old instead of git's usage text, and the session stays whole", () => {
    const s = newSession(sb, "close me");
    const r = sb.spex(["session", "close", s.id, "--json"], { env: oldGitEnv });
    expect(r.code).toBe(1);
    const err = parse(r.stdout).error;
    expect(err.code).toBe("git_too_old");
    expect(err.message).toContain("git version 2.34.1");
    expect(err.hint).toContain("git 2.38 or newer");
    expect(existsSync(s.worktree)).toBe(true);
    expect(refOf(sb, `refs/heads/${s.branch}`)).toMatch(/^[0-9a-f]{40}$/);
    expect(parse(sb.spex(["session", "ls", "--json"]).stdout).map((row: { id: string }) => row.id)).toEqual([s.id]);
  });

  test("doctor fails its git check with git_too_old and says which version is needed", () => {
    const r = sb.spex(["doctor", "--json"], { env: oldGitEnv });
    expect(r.code).toBe(1);
    const git = parse(r.stdout).checks.find((c: { name: string }) => c.name === "git");
    expect(git).toMatchObject({ ok: false, required: true, code: "git_too_old" });
    expect(git.detail).toContain("git version 2.34.1");
    expect(git.detail).toContain("2.38");
    const human = sb.spex(["doctor"], { env: oldGitEnv });
    expect(human.stdout).toContain("[git_too_old]");
  });

  test("doctor passes its git check with a git new enough", () => {
    const r = sb.spex(["doctor", "--json"]);
    const git = parse(r.stdout).checks.find((c: { name: string }) => c.name === "git");
    expect(git).toMatchObject({ ok: true });
    expect(git.code).toBeUndefined();
  });
});
