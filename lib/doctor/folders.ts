// The folders under the worktree root that no record owns, each with the one
// piece of advice spex can stand behind. Removal is advised only for what
// provably holds nobody's work: an empty folder (`rmdir`, which refuses
// anything else), or a registered worktree with no change at all (ignored
// files included: they are the user's, DESIGN.md §13) whose commit is on the
// main branch, and which holds no other worktree. Everything else — a folder
// holding a registered worktree (the user's own `.worktrees/mine/feature`),
// uncommitted or unmerged work, files git knows nothing of, anything a
// corrupt record or a running create may own — is to be inspected.
import { lstatSync, readdirSync } from "node:fs";
import { join, sep } from "node:path";
import { type WorktreeEntry, git, listWorktrees, worktreeChanges } from "../teardown/git";
import { sandboxAvailability } from "../workspace/sandbox";
import { shellWord } from "../tmux/quote";
import { type Claim, claimOnFolder } from "./claims";

export interface FolderAdvice {
  path: string;
  action: "remove" | "inspect";
  command: string;
  /** Why it is to be inspected ("" when it may be removed). */
  reason: string;
}

export interface FolderFacts {
  root: string;
  worktreeRoot: string;
  /** The source-of-truth branch ("" when it cannot be told: nothing counts as merged). */
  mainBranch: string;
  /** Worktree paths that session records own: not orphans. */
  known: Set<string>;
  /** What corrupt records and running creates may own. */
  claims: Claim[];
}

const under = (path: string, folder: string) => path.startsWith(folder + sep);

function registered(root: string): WorktreeEntry[] {
  try {
    return listWorktrees(root).filter((w) => !w.bare);
  } catch {
    return [];
  }
}

function inspect(path: string, reason: string, command = `ls -la ${shellWord(path)}`): FolderAdvice {
  return { path, action: "inspect", command, reason };
}

/** A registered worktree at `path` itself: removable only when clean, merged, unlocked. */
function adviseWorktree(f: FolderFacts, w: WorktreeEntry): FolderAdvice {
  const status = `git -C ${shellWord(w.path)} status --short --branch --ignored`;
  if (w.locked) return inspect(w.path, "the worktree is locked", status);
  let changes;
  try {
    // No record says whether an agent in a sandbox worked here: read it in one where that can run.
    changes = worktreeChanges(f.root, w.path, sandboxAvailability().usable);
  } catch (e) {
    return inspect(w.path, `git could not read its changes: ${(e as Error).message}`, status);
  }
  if (changes.length > 0) return inspect(w.path, `uncommitted work: ${changes.length} changed, untracked or ignored path(s)`, status);
  if (!f.mainBranch) return inspect(w.path, "the main branch is unknown, so whether its commits are merged is too", status);
  const merged = w.head !== "" && git(f.root, ["merge-base", "--is-ancestor", w.head, `refs/heads/${f.mainBranch}`]).code === 0;
  if (!merged) {
    const tip = w.branch ? w.branch.replace(/^refs\/heads\//, "") : w.head;
    return inspect(w.path, `unmerged work: ${tip} has commits ${f.mainBranch} does not`, `git -C ${shellWord(f.root)} log --oneline ${shellWord(`${f.mainBranch}..${w.head}`)}`);
  }
  return { path: w.path, action: "remove", command: `git -C ${shellWord(f.root)} worktree remove ${shellWord(w.path)}`, reason: "" };
}

/** Advice for each entry under the worktree root that no record owns. */
export function adviseFolders(f: FolderFacts): FolderAdvice[] {
  let names: string[];
  try {
    names = readdirSync(f.worktreeRoot);
  } catch {
    return [];
  }
  const trees = registered(f.root);
  const out: FolderAdvice[] = [];
  for (const name of names) {
    const path = join(f.worktreeRoot, name);
    if (f.known.has(path)) continue;
    const claim = claimOnFolder(f.claims, path);
    if (claim) {
      out.push(inspect(path, claim.reason));
      continue;
    }
    const nested = trees.filter((w) => under(w.path, path)).map((w) => w.path);
    const ownedBelow = [...f.known].filter((p) => under(p, path));
    if (nested.length > 0 || ownedBelow.length > 0) {
      out.push(inspect(path, `it holds the registered worktree(s) ${[...new Set([...nested, ...ownedBelow])].join(", ")}`, `git -C ${shellWord(f.root)} worktree list`));
      continue;
    }
    const here = trees.find((w) => w.path === path);
    if (here) {
      out.push(adviseWorktree(f, here));
      continue;
    }
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (!st?.isDirectory()) {
      out.push(inspect(path, "it is not a folder"));
      continue;
    }
    let entries: string[];
    try {
      entries = readdirSync(path);
    } catch (e) {
      out.push(inspect(path, `it cannot be read: ${(e as Error).message}`));
      continue;
    }
    if (entries.length === 0) out.push({ path, action: "remove", command: `rmdir ${shellWord(path)}`, reason: "" });
    else out.push(inspect(path, "it is no worktree git knows: its files are in no commit spex can point to"));
  }
  return out;
}
