// Moving the main branch to the merge's commit without disturbing anyone's
// checkout. Where no checkout has the branch out, the ref moves by
// compare-and-swap. Where one does and it is clean, it fast-forwards there
// (`git merge --ff-only`), so its files follow the branch. A checkout with
// uncommitted changes to tracked files is never touched: the merge refuses.
import { SpexError } from "../errors";
import { gitSync, oneLine } from "../git/sync";
import { worktreeGitEnv } from "../git/pinned";
import { git, listWorktrees, parseStatusEntries } from "../teardown/git";
import { headsRef, refCommit } from "./facts";

export interface Holder {
  path: string;
  /** Tracked files with uncommitted changes there (a rename as `old -> new`). */
  dirty: string[];
}

/** Whether a worktree is a sandboxed session's: its files and index are the agent's. */
export type SandboxedWorktree = (path: string) => boolean;

/**
 * The checkout that has `branch` out, if any, and whether it has uncommitted
 * changes to tracked files. Over a sandboxed session's worktree that status
 * runs in a sandbox too: a submodule the agent planted there names commands
 * git runs as it checks it (lib/teardown/git's `contain`).
 */
export function branchHolder(root: string, branch: string, sandboxed: SandboxedWorktree = () => false): Holder | undefined {
  const entry = listWorktrees(root).find((e) => e.branch === headsRef(branch) && !e.bare && !e.prunable);
  if (!entry) return undefined;
  const status = git(entry.path, ["status", "--porcelain=v1", "-z", "--untracked-files=no"], worktreeGitEnv(root, entry.path), entry.path !== root && sandboxed(entry.path));
  // A rename or copy takes two NUL-separated fields (new, then old): parsed whole, never read as two entries.
  const dirty = status.code !== 0 ? ["(git status failed)"] : parseStatusEntries(status.stdout).map((e) => e.path);
  return { path: entry.path, dirty };
}

export function dirtyCheckoutError(into: string, h: Holder): SpexError {
  const files = h.dirty;
  return new SpexError("main_checkout_dirty", `${into} is checked out at ${h.path} with uncommitted changes (${files.slice(0, 10).join(", ")}${files.length > 10 ? ", …" : ""}); spex does not touch it, nothing was changed`, {
    hint: `commit or stash them there (or check out another branch there), then merge again`,
    details: { checkout: h.path, files, into },
  });
}

export type LandOutcome = { kind: "landed"; checkout: string } | { kind: "moved" };

/**
 * Move `into` from `before` to `after`. "moved" means the branch is no longer
 * at `before` (someone else landed something first): nothing was changed and
 * the caller may plan again.
 */
export function landOnBranch(root: string, into: string, before: string, after: string, reflog: string, sandboxed?: SandboxedWorktree): LandOutcome {
  const ref = headsRef(into);
  const holder = branchHolder(root, into, sandboxed);
  if (!holder) {
    const r = gitSync(root, ["update-ref", "-m", reflog, ref, after, before]);
    if (r.code === 0) return { kind: "landed", checkout: "" };
    if (refCommit(root, ref) !== before) return { kind: "moved" };
    throw new SpexError("git_failed", `moving ${into} failed: ${oneLine(r.stderr)}; nothing was changed`, {
      hint: "fix what git reports, then merge again",
    });
  }
  if (holder.dirty.length > 0) throw dirtyCheckoutError(into, holder);
  if (refCommit(root, ref) !== before) return { kind: "moved" };
  // The checkout's own fast-forward moves the branch and its files together, and refuses (changing nothing) when an untracked file is in the way.
  const r = gitSync(holder.path, ["merge", "--ff-only", "--no-edit", "-q", after], { env: worktreeGitEnv(root, holder.path) });
  if (r.code === 0) return { kind: "landed", checkout: holder.path };
  if (refCommit(root, ref) !== before) return { kind: "moved" };
  throw new SpexError("main_checkout_dirty", `${into} is checked out at ${holder.path} and git would not bring its files along (${oneLine(r.stderr).slice(0, 400)}); nothing was changed`, {
    hint: "move the files git names out of the way there, then merge again",
    details: { checkout: holder.path, into, git: r.stderr.trim() },
  });
}
