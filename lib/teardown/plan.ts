// What close may do, decided from observed facts before anything changes
// (DESIGN.md §1.6 "refuse before mutating"). Pure, so every refusal rule is
// tested without git or tmux.
import { SpexError } from "../errors";
import type { Commit, DirtyEntry } from "./git";

export interface CloseFacts {
  worktreePath: string;
  branch: string;
  /** The recorded worktree folder is gone (the record is retired). */
  retired: boolean;
  /** git lists the worktree path among its worktrees. */
  worktreeRegistered: boolean;
  /** Someone ran `git worktree lock` on it. */
  worktreeLocked: boolean;
  /** Uncommitted changes, ignored files included, spex's own rendered files left out. */
  changes: DirtyEntry[];
  branchExists: boolean;
  /** Other checkouts that have the branch out (deleting it would fail). */
  branchCheckedOutAt: string[];
  /** Commits on the branch that the main branch lacks. */
  unmerged: { commits: Commit[]; more: boolean };
  mainRef: string;
}

export interface ClosePlan {
  worktree: "remove" | "prune" | "absent";
  branch: "delete" | "absent" | "keep";
  /** Work a forced close throws away (listed in its result). */
  discards: { files: string[]; commits: Commit[]; moreCommits: boolean };
}

function commitList(u: CloseFacts["unmerged"]): string {
  const shown = u.commits.slice(0, 10).map((c) => `${c.sha} ${c.subject}`).join("; ");
  return u.commits.length > 10 || u.more ? `${shown}; and more` : shown;
}

export function planClose(id: string, f: CloseFacts, force: boolean): ClosePlan {
  const short = id.slice(0, 8);
  if (f.worktreePath && !f.retired && !f.worktreeRegistered) {
    throw new SpexError("worktree_unregistered", `session ${short}: ${f.worktreePath} exists but git does not list it as a worktree; nothing was changed`, {
      hint: "spex only removes folders git owns: move or delete that folder yourself, then close again (the record then closes record-only)",
      details: { worktree: f.worktreePath },
    });
  }
  if (f.worktreeLocked && !f.retired && !force) {
    throw new SpexError("worktree_locked", `session ${short}: the worktree ${f.worktreePath} is locked (git worktree lock); nothing was changed`, {
      hint: "unlock it with `git worktree unlock`, or close with --force",
      details: { worktree: f.worktreePath },
    });
  }
  const files = f.retired ? [] : f.changes.map((c) => `${c.status} ${c.path}`);
  if (files.length > 0 && !force) {
    throw new SpexError("worktree_dirty", `session ${short}: the worktree ${f.worktreePath} has files that are not committed (ignored ones count): ${files.slice(0, 20).join(", ")}${files.length > 20 ? ` and ${files.length - 20} more` : ""}; nothing was changed`, {
      hint: "commit, move or delete them in the worktree, or close with --force to throw them away",
      details: { worktree: f.worktreePath, files },
    });
  }
  const merged = f.unmerged.commits.length === 0;
  if (f.branchExists && !merged && !force && !f.retired) {
    throw new SpexError("branch_unmerged", `session ${short}: the branch ${f.branch} has commits not on ${f.mainRef.replace(/^refs\/heads\//, "")}: ${commitList(f.unmerged)}; nothing was changed`, {
      hint: "merge the branch first, or close with --force to delete it anyway",
      details: { branch: f.branch, mainRef: f.mainRef, commits: f.unmerged.commits, more: f.unmerged.more },
    });
  }
  // A retired record closes record-only: its branch goes only when nothing would be lost (or on --force).
  const branch: ClosePlan["branch"] = !f.branchExists ? "absent" : merged || force ? "delete" : "keep";
  if (branch === "delete" && f.branchCheckedOutAt.length > 0) {
    throw new SpexError("branch_checked_out", `session ${short}: the branch ${f.branch} is checked out at ${f.branchCheckedOutAt.join(", ")}; nothing was changed`, {
      hint: "check out another branch there first",
      details: { branch: f.branch, checkouts: f.branchCheckedOutAt },
    });
  }
  const worktree: ClosePlan["worktree"] = !f.worktreePath ? "absent" : !f.retired ? "remove" : f.worktreeRegistered ? "prune" : "absent";
  return {
    worktree,
    branch,
    discards: {
      files,
      commits: branch === "delete" ? f.unmerged.commits : [],
      moreCommits: branch === "delete" && f.unmerged.more,
    },
  };
}
