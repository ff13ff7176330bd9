// The unpinned fork point (seed 001, issue 13 item 10): a session forks from
// the source-of-truth branch, never from whatever the main checkout has out.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { type Sandbox, makeRepo, sandbox, madeBySpex } from "../support/sandbox";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

function commit(s: Sandbox, file: string, cwd = s.repo): string {
  writeFileSync(join(cwd, file), `${file}\n`);
  s.git(["add", file], cwd);
  s.git(["commit", "-q", "-m", file], cwd);
  return s.git(["rev-parse", "HEAD"], cwd).trim();
}

function created(s: Sandbox, args: string[] = [], cwd?: string) {
  const r = s.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", ...args, "forked work"], { cwd });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}


describe("the fork point of an unpinned session", () => {
  test("a main checkout on a feature branch still forks sessions from main", () => {
    sb = sandbox();
    const main = sb.git(["rev-parse", "main"]).trim();
    sb.git(["checkout", "-q", "-b", "feature"]);
    const feature = commit(sb, "feature.txt");
    const c = created(sb);
    expect(sb.git(["rev-parse", "HEAD"], c.worktree_path).trim()).toBe(main);
    expect(sb.git(["rev-parse", "HEAD"], c.worktree_path).trim()).not.toBe(feature);
  });

  test("mainBranch in spexcode.json is the fork point when it exists", () => {
    sb = sandbox();
    sb.git(["branch", "release"]);
    sb.git(["checkout", "-q", "release"]);
    const release = commit(sb, "release.txt");
    sb.git(["checkout", "-q", "main"]);
    writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ mainBranch: "release" }));
    const c = created(sb);
    expect(sb.git(["rev-parse", "HEAD"], c.worktree_path).trim()).toBe(release);
  });

  test("a configured mainBranch that does not exist is config_invalid, and nothing is made", () => {
    sb = sandbox();
    writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ mainBranch: "mian" }));
    const before = madeBySpex(sb);
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "typo in the config"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("[config_invalid]");
    expect(r.stderr).toContain('"mian"');
    expect(JSON.parse(r.stdout).error.code).toBe("config_invalid");
    expect(madeBySpex(sb)).toEqual(before);
  });

  test("a clone forks from the branch origin/HEAD names, not from the branch it has out", () => {
    sb = sandbox();
    // The upstream's default branch is develop; the clone also has main and sits on a topic branch.
    sb.git(["checkout", "-q", "-b", "develop"]);
    const develop = commit(sb, "develop.txt");
    const cloneDir = join(sb.dir, "clone");
    const r = spawnSync("git", ["clone", "-q", sb.repo, cloneDir], { env: sb.env, encoding: "utf8" });
    expect(r.status).toBe(0);
    sb.git(["branch", "main", "origin/main"], cloneDir);
    sb.git(["checkout", "-q", "-b", "topic"], cloneDir);
    commit(sb, "topic.txt", cloneDir);
    expect(sb.git(["symbolic-ref", "refs/remotes/origin/HEAD"], cloneDir).trim()).toBe("refs/remotes/origin/develop");
    const c = created(sb, [], cloneDir);
    expect(sb.git(["rev-parse", "HEAD"], c.worktree_path).trim()).toBe(develop);
  });

  test("without main, master or origin/HEAD the branch the checkout has out is the fork point", () => {
    sb = sandbox({ repo: false });
    const repo = join(sb.dir, "trunk-repo");
    makeRepo(repo, sb.env);
    sb.git(["branch", "-m", "main", "trunk"], repo);
    const trunk = sb.git(["rev-parse", "HEAD"], repo).trim();
    const c = created(sb, [], repo);
    expect(sb.git(["rev-parse", "HEAD"], c.worktree_path).trim()).toBe(trunk);
  });
});
