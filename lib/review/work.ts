// The session's uncommitted work as git objects, without touching its
// worktree or index: a private index starts from the worktree's HEAD and takes
// the session's work (sessionWork: staged, unstaged and untracked files, not
// ignored ones and not what spex rendered there), and gives a tree. A diff with
// --worktree shows that tree; a merge with --include-uncommitted commits it.
// For a diff, a file past the text limit is not hashed at all (it would only
// show as binary): a stand-in blob takes its place in the tree.
import { lstatSync, rmSync } from "node:fs";
import { join } from "node:path";
import { SpexError } from "../errors";
import { gitSync, gitSyncOrThrow, oneLine } from "../git/sync";
import { worktreeGitEnv } from "../git/pinned";
import { sessionWork } from "../teardown/work";
import { headsRef } from "./facts";
import { crashpoint, makeScratch, sweepScratch } from "./scratch";

export interface WorkSnapshot {
  /** Paths of the uncommitted work, relative to the worktree. */
  files: string[];
  /** The worktree's HEAD commit and its tree with the work in it. */
  head: string;
  tree: string;
  /** HEAD is the session's branch (a commit of the work can go on it). */
  onBranch: boolean;
  /** Files left unread (`unreadOver`): path → size in bytes; a stand-in blob has their place in `tree`. */
  unread: Map<string, number>;
}

export interface SnapshotOptions {
  /**
   * Regular files larger than this are not read: a display-only tree (a diff)
   * gets UNREAD_BLOB in their place, so a 400 MB log is neither hashed nor
   * written into the repository. A merge leaves it unset: it commits everything.
   */
  unreadOver?: number;
  /** The worktree is a sandboxed session's: its status is read in a sandbox (lib/workspace/sandbox). */
  sandboxed?: boolean;
}

/** The stand-in's text: the NUL makes git count it binary, like the file it stands for. */
export const UNREAD_BLOB = "spex: this file is over the diff's text limit and was not read\0\n";

/** The files in `files` that are regular files over `limit` bytes in the worktree, with their sizes and git modes. */
function oversized(worktree: string, files: string[], limit: number): Map<string, { size: number; mode: string }> {
  const out = new Map<string, { size: number; mode: string }>();
  for (const path of files) {
    let st;
    try {
      st = lstatSync(join(worktree, path));
    } catch {
      continue; // deleted: nothing to read
    }
    if (st.isFile() && st.size > limit) out.set(path, { size: st.size, mode: st.mode & 0o111 ? "100755" : "100644" });
  }
  return out;
}

/** The paths git names for each change; a rename or copy ("old -> new") names both. */
export function workPaths(entries: { status: string; path: string }[]): string[] {
  const out: string[] = [];
  for (const e of entries) {
    if (e.status === "!!") continue; // ignored files are not part of what merges
    const arrow = /[RC]/.test(e.status) ? e.path.lastIndexOf(" -> ") : -1;
    if (arrow >= 0) out.push(e.path.slice(0, arrow), e.path.slice(arrow + 4));
    else out.push(e.path.replace(/\/$/, ""));
  }
  return [...new Set(out)];
}

/** The paths of the session's uncommitted work, read from `git status` alone (nothing hashed, nothing written). */
export function uncommittedPaths(root: string, worktree: string, harness: string, sandboxed = false): string[] {
  return workPaths(sessionWork(root, worktree, harness, "", () => false, sandboxed));
}

export function snapshotWork(root: string, worktree: string, harness: string, branch: string, opts: SnapshotOptions = {}): WorkSnapshot {
  const files = uncommittedPaths(root, worktree, harness, opts.sandboxed);
  // The worktree's recorded git folder, never one its `.git` file names (lib/git/pinned).
  const pin = { env: worktreeGitEnv(root, worktree) };
  const head = gitSyncOrThrow(worktree, ["rev-parse", "--verify", "HEAD^{commit}"], "reading the worktree's HEAD", pin).trim();
  const symbolic = gitSync(worktree, ["symbolic-ref", "-q", "HEAD"], pin).stdout.trim();
  const onBranch = symbolic === headsRef(branch);
  if (files.length === 0) {
    const tree = gitSyncOrThrow(worktree, ["rev-parse", `${head}^{tree}`], "reading the worktree's tree", pin).trim();
    return { files, head, tree, onBranch, unread: new Map() };
  }
  const big = opts.unreadOver === undefined ? new Map() : oversized(worktree, files, opts.unreadOver);
  const staged = big.size === 0 ? files : files.filter((f) => !big.has(f));
  // A run killed here earlier left its folder behind: named after its dead maker, it goes now.
  sweepScratch("index");
  const dir = makeScratch("index");
  try {
    const env = { ...pin.env, GIT_INDEX_FILE: join(dir, "index") };
    gitSyncOrThrow(worktree, ["read-tree", head], "reading HEAD into a private index", { env });
    crashpoint("index");
    // Pathspecs are literal: a file named `*` or `:(glob)x` is that file.
    for (let i = 0; i < staged.length; i += 500) {
      gitSyncOrThrow(worktree, ["--literal-pathspecs", "add", "-A", "--", ...staged.slice(i, i + 500)], "staging the session's work in a private index", { env });
    }
    if (big.size > 0) {
      // After the add: a deletion it staged may have made room for one of these (a folder that became a file).
      const blob = gitSyncOrThrow(worktree, ["hash-object", "-w", "--stdin"], "writing the stand-in of a file too big to read", { env, input: UNREAD_BLOB }).trim();
      const lines = [...big].map(([path, f]) => `${f.mode} ${blob}\t${path}\0`).join("");
      gitSyncOrThrow(worktree, ["update-index", "-z", "--index-info"], "listing the files too big to read", { env, input: lines });
    }
    const tree = gitSyncOrThrow(worktree, ["write-tree"], "writing the work's tree", { env }).trim();
    const unread = new Map([...big].map(([path, f]) => [path, f.size]));
    return { files, head, tree, onBranch, unread };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A commit of the snapshot on top of the branch tip; nothing points at it until the caller moves the branch. */
export function commitWork(root: string, snap: WorkSnapshot, message: string): string {
  return gitSyncOrThrow(root, ["commit-tree", snap.tree, "-p", snap.head, "-F", "-"], "committing the uncommitted work", { input: message }).trim();
}

/**
 * Move the session's branch to the commit of its work, and its index with it
 * (the files are already what was committed). The branch moves only if it is
 * still where the snapshot saw it; an index that cannot follow puts it back.
 */
export function adoptWorkCommit(root: string, worktree: string, branch: string, snap: WorkSnapshot, commit: string): void {
  const ref = headsRef(branch);
  const moved = gitSync(root, ["update-ref", "-m", "spex merge: commit uncommitted work", ref, commit, snap.head]);
  if (moved.code !== 0) {
    throw new SpexError("merge_raced", `the branch ${branch} moved while its uncommitted work was being committed; nothing was merged`, {
      hint: "run the merge again",
      details: { branch },
    });
  }
  const pin = { env: worktreeGitEnv(root, worktree) };
  const index = gitSync(worktree, ["read-tree", commit], pin);
  if (index.code !== 0) {
    gitSync(root, ["update-ref", ref, snap.head, commit]);
    throw new SpexError("git_failed", `the worktree's index could not follow the commit of its work: ${oneLine(index.stderr)}; nothing was merged`, {
      hint: "a git command may be running in the session's worktree; run the merge again",
      details: { worktree },
    });
  }
  // read-tree drops the stat data: refresh it now rather than on the agent's next `git status`.
  gitSync(worktree, ["update-index", "-q", "--refresh"], pin);
}
