// The git facts and steps teardown needs, one spawnSync each: synchronous so
// they can run inside a record mutation under its lock. gitEnv strips the
// GIT_DIR/GIT_INDEX_FILE/GIT_WORK_TREE a hook would otherwise pass down.
import { spawnSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { SpexError } from "../errors";
import { gitEnv } from "../git/ops";
import { worktreeGitEnv } from "../git/pinned";
import { type WorktreeEntry, parseWorktreeList } from "../git/worktrees";
import { gitTooOldFailure } from "../git/version";
import { BWRAP, containedGitArgv, sandboxAvailability } from "../workspace/sandbox";
import { timed } from "./timing";

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `contain`: run it under bwrap, as over a sandboxed session's worktree (containedGitArgv says why). */
export function git(cwd: string, args: string[], env: Record<string, string> = {}, contain = false): GitResult {
  return timed("git", () => {
    const full = gitEnv(env);
    const [cmd, argv] = contain ? [BWRAP, containedArgv(cwd, args, full)] : ["git", args];
    const r = spawnSync(cmd, argv, { cwd, env: full, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    if (r.error) throw r.error;
    return { code: r.status ?? -1, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
  });
}

function containedArgv(cwd: string, args: string[], env: NodeJS.ProcessEnv): string[] {
  const usable = sandboxAvailability();
  if (!usable.usable) {
    throw new SpexError("sandbox_unavailable", `the worktree ${cwd} is a sandboxed session's, and git is only run over it in a sandbox, which cannot run here: ${usable.reason}`, {
      hint: "install bubblewrap again (`spex doctor` says what is missing); `--force` skips the check and throws the worktree's uncommitted work away",
    });
  }
  // The worktree, its git folder and the repository's (two up from worktrees/NAME), the user's git config.
  const gitDirs = env.GIT_DIR ? [env.GIT_DIR, resolve(env.GIT_DIR, "..", "..")] : [];
  const config = [env.HOME, env.XDG_CONFIG_HOME, env.GIT_CONFIG_GLOBAL && dirname(env.GIT_CONFIG_GLOBAL)];
  return containedGitArgv(args, [cwd, ...gitDirs, ...config].filter((p): p is string => !!p));
}

function gitOrThrow(cwd: string, args: string[], what: string, env: Record<string, string> = {}, contain = false): string {
  const r = git(cwd, args, env, contain);
  if (r.code !== 0) {
    const old = gitTooOldFailure(what, r.code);
    if (old) throw old;
    throw new SpexError("git_failed", `${what} failed: git ${args.join(" ")}: ${r.stderr.trim() || `exit ${r.code}`}`, {
      hint: "fix the repository state git reports, then run the command again",
      details: { git: args, exit: r.code, stderr: r.stderr.trim() },
    });
  }
  return r.stdout;
}

export { type WorktreeEntry, parseWorktreeList } from "../git/worktrees";

export function listWorktrees(root: string): WorktreeEntry[] {
  return parseWorktreeList(gitOrThrow(root, ["worktree", "list", "--porcelain", "-z"], "listing worktrees"));
}

export interface DirtyEntry {
  status: string;
  path: string;
}

export function parseStatusEntries(text: string): DirtyEntry[] {
  const out: DirtyEntry[] = [];
  const fields = text.split("\0");
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    if (f.length < 4) continue;
    const status = f.slice(0, 2);
    let path = f.slice(3);
    if (status.includes("R") || status.includes("C")) path = `${fields[++i] ?? ""} -> ${path}`;
    out.push({ status, path });
  }
  return out;
}

/**
 * Uncommitted changes in a worktree: staged, unstaged, untracked and ignored
 * (`!!`). An ignored folder is named once ("build/"), not file by file.
 */
/** The changes in a worktree of `root`, read through its recorded git folder (lib/git/pinned). */
export function worktreeChanges(root: string, worktree: string, contain = false): DirtyEntry[] {
  const args = ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored=matching"];
  return parseStatusEntries(gitOrThrow(worktree, args, "checking the worktree for changes", worktreeGitEnv(root, worktree), contain));
}

export function branchExists(root: string, branch: string): boolean {
  const ref = `refs/heads/${branch}`;
  const out = gitOrThrow(root, ["for-each-ref", "--format=%(refname)", ref], "looking up the branch");
  return out.split("\n").includes(ref);
}

export interface Commit {
  sha: string;
  subject: string;
}

/**
 * Commits on `branch` that `mainRef` does not contain: the first `limit`, and
 * whether there are more. `landed` is a tip `spex session merge` landed (a
 * squash or rebase lands copies): commits it contains count as merged.
 */
export function unmergedCommits(root: string, mainRef: string, branch: string, limit = 50, landed = ""): { commits: Commit[]; more: boolean } {
  const range = [`${mainRef}..refs/heads/${branch}`, ...(landed ? ["--ignore-missing", `^${landed}`] : [])];
  const out = gitOrThrow(root, ["log", `--max-count=${limit + 1}`, "--format=%h%x00%s", ...range, "--"], "listing unmerged commits");
  const commits = out
    .split("\n")
    .filter(Boolean)
    .map((l) => {
      const [sha, subject] = l.split("\0");
      return { sha: sha ?? "", subject: subject ?? "" };
    });
  return { commits: commits.slice(0, limit), more: commits.length > limit };
}

/** Only called once close's checks passed; a second --force also removes a locked worktree (close --force). */
export function removeWorktree(root: string, path: string, evenLocked = false): void {
  gitOrThrow(root, ["worktree", "remove", "--force", ...(evenLocked ? ["--force"] : []), path], "removing the worktree");
}

export function pruneWorktrees(root: string): void {
  gitOrThrow(root, ["worktree", "prune"], "pruning stale worktree entries");
}

export function deleteBranch(root: string, branch: string): void {
  gitOrThrow(root, ["branch", "-D", branch], "deleting the branch");
}
