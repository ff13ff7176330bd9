// The commit a merge would put on the main branch, computed without moving
// any ref or touching any checkout: `git merge-tree --write-tree` for a merge
// commit or a squash, a throwaway detached worktree for a rebase. A conflict
// throws `merge_conflict` naming the files; only unreachable objects remain.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { SpexError } from "../errors";
import { gitSync, gitSyncOrThrow } from "../git/sync";
import { requireGit } from "../git/version";
import { isAncestor } from "./facts";
import { crashpoint, makeScratch, sweepScratch } from "./scratch";

export type MergeStrategy = "merge" | "squash" | "ff-only" | "rebase";
/** What actually happened: `none` when the main branch already has the work. */
export type Landing = "fast-forward" | "merge-commit" | "squash" | "rebase" | "none";

export interface Planned {
  landing: Landing;
  /** The new tip of the main branch ("" for none). */
  after: string;
}

export interface PlanInput {
  root: string;
  strategy: MergeStrategy;
  /** Main branch tip, and the session's tip (with its uncommitted work committed, if asked). */
  before: string;
  tip: string;
  message: string;
  into: string;
  branch: string;
}

export function conflictError(into: string, branch: string, files: string[]): SpexError {
  return new SpexError("merge_conflict", `${branch} does not merge cleanly into ${into}: ${files.length} conflicting file${files.length === 1 ? "" : "s"} (${files.slice(0, 20).join(", ")}${files.length > 20 ? ", …" : ""}); nothing was changed`, {
    hint: `ask the session to merge ${into} into its branch and resolve them, then merge again`,
    details: { files, into, branch },
  });
}

/** The merged tree of two commits, or the files that conflict. */
export function mergeTrees(root: string, ours: string, theirs: string): { tree: string; conflicts: string[] } {
  requireGit("spex session merge");
  const r = gitSync(root, ["merge-tree", "--write-tree", "-z", "--name-only", "--no-messages", ours, theirs]);
  if (r.code !== 0 && r.code !== 1) gitSyncOrThrow(root, ["merge-tree", "--write-tree", ours, theirs], "merging the trees");
  const [tree, ...rest] = r.stdout.split("\0");
  return { tree: tree!.trim(), conflicts: r.code === 1 ? [...new Set(rest.filter(Boolean))] : [] };
}

function commitTree(root: string, tree: string, parents: string[], message: string): string {
  const args = ["commit-tree", tree, ...parents.flatMap((p) => ["-p", p]), "-F", "-"];
  return gitSyncOrThrow(root, args, "writing the merge commit", { input: message }).trim();
}

/** Replay the session's commits onto the main branch in a detached worktree of our own, removed afterwards. */
function rebaseOnto(p: PlanInput): string {
  // A rebase killed earlier left its folder (and a worktree the repository still lists): both go now.
  if (sweepScratch("rebase").length > 0) gitSync(p.root, ["worktree", "prune"]);
  const dir = makeScratch("rebase");
  const path = join(dir, "wt");
  // No hooks run in a worktree only spex sees (the user's post-checkout, spex's own).
  const quiet = ["-c", "core.hooksPath=/dev/null", "-c", "rebase.autoStash=false"];
  try {
    gitSyncOrThrow(p.root, [...quiet, "worktree", "add", "--detach", "-q", path, p.tip], "making a worktree to rebase in");
    crashpoint("rebase");
    const r = gitSync(path, [...quiet, "rebase", "-q", "--no-autosquash", p.before]);
    if (r.code !== 0) {
      const unmerged = gitSync(path, ["diff", "--name-only", "-z", "--diff-filter=U"]).stdout.split("\0").filter(Boolean);
      gitSync(path, [...quiet, "rebase", "--abort"]);
      if (unmerged.length > 0) throw conflictError(p.into, p.branch, unmerged);
      gitSyncOrThrow(path, [...quiet, "rebase", p.before], "rebasing the session's commits");
    }
    return gitSyncOrThrow(path, ["rev-parse", "HEAD"], "reading the rebased tip").trim();
  } finally {
    gitSync(p.root, ["worktree", "remove", "--force", "--force", path]);
    rmSync(dir, { recursive: true, force: true });
    gitSync(p.root, ["worktree", "prune"]);
  }
}

export function planLanding(p: PlanInput): Planned {
  const { root, before, tip } = p;
  if (isAncestor(root, tip, before)) return { landing: "none", after: "" };
  const fastForward = isAncestor(root, before, tip);
  switch (p.strategy) {
    case "ff-only":
      if (!fastForward) {
        throw new SpexError("merge_not_fast_forward", `${p.into} has moved on since ${p.branch} forked; a fast-forward is not possible; nothing was changed`, {
          hint: "merge without --ff-only (a merge commit), with --squash or --rebase",
          details: { into: p.into, branch: p.branch },
        });
      }
      return { landing: "fast-forward", after: tip };
    case "merge":
    case "rebase":
      if (fastForward) return { landing: "fast-forward", after: tip };
      if (p.strategy === "rebase") {
        // Every commit already upstream (git drops a patch the main branch has): nothing to land.
        const after = rebaseOnto(p);
        return after === before ? { landing: "none", after: "" } : { landing: "rebase", after };
      }
      break;
    case "squash":
      break;
  }
  const { tree, conflicts } = fastForward ? { tree: `${tip}^{tree}`, conflicts: [] } : mergeTrees(root, before, tip);
  if (conflicts.length > 0) throw conflictError(p.into, p.branch, conflicts);
  if (p.strategy === "merge") return { landing: "merge-commit", after: commitTree(root, tree, [before, tip], p.message) };
  const treeId = gitSyncOrThrow(root, ["rev-parse", tree], "reading the squashed tree").trim();
  const beforeTree = gitSyncOrThrow(root, ["rev-parse", `${before}^{tree}`], "reading the main branch's tree").trim();
  if (treeId === beforeTree) return { landing: "none", after: "" };
  return { landing: "squash", after: commitTree(root, treeId, [before], p.message) };
}
