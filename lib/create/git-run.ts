// The git calls of a create and of its rollback: asynchronous (a create can
// run inside `serve`, where a blocking git would stall every other request),
// with exit status and stderr kept, since which step failed and how decides
// what this create made. Every call carries SPEX_CREATE_ID, inherited by
// git's children and the repository's hooks, so a recovery can tell that a
// dead create's git is still at work (undo.ts).
import { spawn } from "node:child_process";
import { gitEnv } from "../git";
import { type WorktreeEntry, parseWorktreeList } from "../git/worktrees";
import { SpexError } from "../errors";
import { oneLine } from "../git/sync";
import { gitTooOldFailure } from "../git/version";

export interface GitOutcome {
  /** Exit status; -1 when git was killed by a signal. */
  code: number;
  stdout: string;
  stderr: string;
}

/** What of git's output is kept: enough for any message, never a flood. */
const KEEP_BYTES = 64 * 1024;

export function runGit(cwd: string, args: string[], env: Record<string, string> = {}): Promise<GitOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { cwd, env: gitEnv(env), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      if (stdout.length < KEEP_BYTES) stdout += d;
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      if (stderr.length < KEEP_BYTES) stderr += d;
    });
    child.once("error", reject);
    child.once("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export function gitFailed(what: string, args: string[], r: GitOutcome): SpexError {
  const old = gitTooOldFailure(what, r.code);
  if (old) return old;
  return new SpexError("git_failed", `${what} failed: git ${args.join(" ")}: ${oneLine(r.stderr) || `exit ${r.code}`}`, {
    hint: "fix what git reports, then create the session again",
    details: { git: args, exit: r.code, stderr: r.stderr.trim() },
  });
}

export async function listWorktrees(root: string, env: Record<string, string> = {}): Promise<WorktreeEntry[]> {
  const args = ["worktree", "list", "--porcelain", "-z"];
  const r = await runGit(root, args, env);
  if (r.code !== 0) throw gitFailed("listing worktrees", args, r);
  return parseWorktreeList(r.stdout);
}

/** The commit a branch points at, or undefined when there is no such branch. */
export async function branchTip(root: string, branch: string): Promise<string | undefined> {
  const r = await runGit(root, ["rev-parse", "--verify", "--quiet", "--end-of-options", `refs/heads/${branch}^{commit}`]);
  const sha = r.stdout.trim();
  return r.code === 0 && /^[0-9a-f]{40,64}$/.test(sha) ? sha : undefined;
}
