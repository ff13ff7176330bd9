// The worktrees git knows, as `git worktree list --porcelain -z` tells them:
// shared by teardown (close, merge's landing) and create's rollback, which
// proves a worktree its own before it removes it.

export interface WorktreeEntry {
  path: string;
  head: string;
  /** Full ref name (refs/heads/…) or "" when detached. */
  branch: string;
  bare: boolean;
  locked: boolean;
  /** Why it is locked; git's own `worktree add` holds the lock `initializing` until it is done. */
  lockReason: string;
  prunable: boolean;
}

/** Parse `git worktree list --porcelain -z`: attribute lines NUL-terminated, entries split by an empty one. */
export function parseWorktreeList(text: string): WorktreeEntry[] {
  const entries: WorktreeEntry[] = [];
  let cur: WorktreeEntry | undefined;
  for (const field of text.split("\0")) {
    if (field === "") {
      if (cur) entries.push(cur);
      cur = undefined;
      continue;
    }
    const sp = field.indexOf(" ");
    const key = sp < 0 ? field : field.slice(0, sp);
    const value = sp < 0 ? "" : field.slice(sp + 1);
    if (key === "worktree") {
      if (cur) entries.push(cur);
      cur = { path: value, head: "", branch: "", bare: false, locked: false, lockReason: "", prunable: false };
    } else if (cur) {
      if (key === "HEAD") cur.head = value;
      else if (key === "branch") cur.branch = value;
      else if (key === "bare") cur.bare = true;
      else if (key === "locked") {
        cur.locked = true;
        cur.lockReason = value;
      }
      else if (key === "prunable") cur.prunable = true;
    }
  }
  if (cur) entries.push(cur);
  return entries;
}
