// A session's worktree is the agent's to write, its `.git` file included: an
// agent allowed to edit files but not to run commands could point that file
// at a repository of its own, inside the worktree, whose config runs a
// command (core.fsmonitor runs at every `git status`). spex runs git in the
// worktree for close, diff --worktree and merge: it must use the worktree's
// own git folder, the one the main repository records, never what the
// worktree's `.git` says.
import { afterEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox } from "../support/sandbox";
import { commitFiles, newSession, refOf } from "../support/review";
import { installFakeAgents } from "../support/agents";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

const pwned = () => readdirSync(sb.dir).filter((n) => n.startsWith("pwned-"));

/** What the agent writes: a repository of its own under its worktree, and `.git` pointing at it. */
function plantGitDir(worktree: string, tag: string): void {
  const fake = join(worktree, ".cache", "repo");
  mkdirSync(join(fake, ".."), { recursive: true });
  const made = spawnSync("git", ["init", "-q", "--bare", fake], { env: sb.env, encoding: "utf8" });
  if (made.status !== 0) throw new Error(made.stderr);
  writeFileSync(join(fake, "config"), `[core]\n\tbare = false\n\tfsmonitor = "touch ${sb.dir}/pwned-${tag}; false"\n`);
  writeFileSync(join(worktree, ".git"), "gitdir: .cache/repo\n");
}

test("close, diff --worktree and merge run git on the worktree's recorded git folder, not on one its .git file names", () => {
  sb = sandbox();
  const s = newSession(sb, "edits files only");
  commitFiles(sb, s.worktree, { "feature.txt": "the feature\n" }, "feature");
  writeFileSync(join(s.worktree, "notes.txt"), "uncommitted work\n");
  plantGitDir(s.worktree, "diff");

  const diff = sb.spex(["session", "diff", s.id, "--worktree", "--json"]);
  const merge = sb.spex(["session", "merge", s.id, "--json"]);
  const close = sb.spex(["session", "close", s.id, "--json"]);
  expect(pwned()).toEqual([]);
  // And they see the real worktree: its uncommitted work is there, so merge and close refuse.
  expect(diff.code).toBe(0);
  expect(JSON.parse(diff.stdout).uncommitted).toContain("notes.txt");
  expect(JSON.parse(merge.stdout).error.code).toBe("worktree_dirty");
  expect(close.code).toBe(1);
  expect(refOf(sb, "refs/heads/main")).not.toBe(refOf(sb, `refs/heads/${s.branch}`));
});

test("a launch that renders a session's start folder reads the worktree through its recorded git folder", () => {
  sb = sandbox();
  installFakeAgents(sb, ["claude"]);
  const made = sb.spex(["session", "new", "--no-launch", "--launcher", "claude", "--directory", "services/api", "--json", "in a subfolder"]);
  expect(made.stderr).toBe("");
  const s = JSON.parse(made.stdout) as { session_id: string; worktree_path: string };
  plantGitDir(s.worktree_path, "resume");
  const resumed = sb.spex(["session", "resume", s.session_id, "--json"]);
  expect(resumed.stderr).toBe("");
  expect(pwned()).toEqual([]);
});
