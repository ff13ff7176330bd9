// What a diff or a merge starts from: the session's record, its branch and
// worktree, the main branch it lands on (decided as create decides the branch
// sessions fork from), and the fork point. Every refusal here comes before
// anything is written.
import { loadConfig } from "../config";
import { SpexError } from "../errors";
import { detectMainBranch } from "../git";
import { gitSync, gitSyncOrThrow } from "../git/sync";
import { notOwnedRefusal } from "../git/ownership";
import { labelOf } from "../naming";
import { type SessionRecord, readSession, refuseUnusable } from "../record";
import type { ProjectStore } from "../store";

export interface ReviewFacts {
  id: string;
  record: SessionRecord;
  label: string;
  /** The session's branch, short name, and its tip now. */
  branch: string;
  head: string;
  /** The main branch (short name) and its tip now. */
  into: string;
  intoHead: string;
  /** The worktree still exists (the record is not retired). */
  hasWorktree: boolean;
}

export const headsRef = (branch: string): string => `refs/heads/${branch}`;

/** The commit a full ref names, or "" when it names none. */
export function refCommit(root: string, ref: string): string {
  const r = gitSync(root, ["rev-parse", "--verify", "-q", "--end-of-options", `${ref}^{commit}`]);
  if (r.code === 0) return r.stdout.trim();
  // git that refuses the repository answers nothing for every ref: not "the branch is gone".
  const refusal = notOwnedRefusal(r.stderr);
  if (refusal) throw refusal;
  return "";
}

export function isAncestor(root: string, older: string, newer: string): boolean {
  const r = gitSync(root, ["merge-base", "--is-ancestor", older, newer]);
  if (r.code > 1) gitSyncOrThrow(root, ["merge-base", "--is-ancestor", older, newer], "comparing commits");
  return r.code === 0;
}

/** The main branch a session lands on: `--into`, else the branch sessions fork from. */
export async function mainBranchOf(store: ProjectStore, into?: string): Promise<string> {
  if (into) return into.replace(/^refs\/heads\//, "");
  return detectMainBranch(store.root, loadConfig(store.root).mainBranch);
}

export async function reviewFacts(store: ProjectStore, id: string, into?: string): Promise<ReviewFacts> {
  const reading = readSession(store, id);
  refuseUnusable(reading, { allowRetired: true });
  const record = reading.record;
  const short = id.slice(0, 8);
  const head = record.branch ? refCommit(store.root, headsRef(record.branch)) : "";
  if (!head) {
    throw new SpexError("branch_missing", `session ${short}: its branch ${record.branch || "(none)"} does not exist`, {
      hint: "nothing is left to review or merge; close the session",
      details: { branch: record.branch },
    });
  }
  const target = await mainBranchOf(store, into);
  if (target.startsWith("-") || gitSync(store.root, ["check-ref-format", "--branch", target]).code !== 0) {
    throw new SpexError("usage", `"${target}" is not a branch name`, { exitCode: 2, httpStatus: 400 });
  }
  const intoHead = refCommit(store.root, headsRef(target));
  if (!intoHead) {
    throw new SpexError("main_branch_missing", `the main branch ${target} does not exist in ${store.root}`, {
      hint: "set mainBranch in spexcode.json to the branch sessions should land on, or pass --into",
      details: { into: target },
    });
  }
  if (target === record.branch) {
    throw new SpexError("usage", `session ${short} works on ${target} itself; there is nothing to land`, { exitCode: 2, httpStatus: 400 });
  }
  return { id, record, label: labelOf(record), branch: record.branch, head, into: target, intoHead, hasWorktree: !reading.retired };
}

/**
 * Where the session's work starts: its pinned base when that is in its
 * history, else where its branch and the main branch part.
 */
export function forkPoint(store: ProjectStore, f: ReviewFacts): string {
  const base = f.record.base;
  if (base && refCommit(store.root, base) && isAncestor(store.root, base, f.head)) return refCommit(store.root, base);
  const r = gitSync(store.root, ["merge-base", f.intoHead, f.head]);
  if (r.code !== 0 || !r.stdout.trim()) {
    throw new SpexError("merge_base_missing", `session ${f.id.slice(0, 8)}: ${f.branch} shares no history with ${f.into}`, {
      hint: "a session branch forks from the main branch; this one was replaced by unrelated history",
      details: { branch: f.branch, into: f.into },
    });
  }
  return r.stdout.trim();
}
