// `spex session merge`: land the session's branch on the main branch. Under
// the session's record lock and the branch locks (so a close, another merge
// onto the same branch, or a create of the same names waits), every refusal
// comes first; the landing commit is computed without moving anything
// (strategies.ts); the main branch moves last, by compare-and-swap or by a
// clean checkout's own fast-forward (land.ts); the merge goes on the session's
// timeline. `close` then counts the landed commits as merged (lib/teardown).
import { SpexError } from "../errors";
import { gitSync } from "../git/sync";
import { requireGit } from "../git/version";
import { withLocks } from "../lock";
import { appendEvent, lastMergeEvent } from "../comms/timeline";
import { writeMergedMark } from "../sessions/merged";
import { type ProjectStore, recordLockPath, resourceLockPaths } from "../store";
import { type CloseResult, closeSession } from "../teardown";
import { faultPoint } from "../faults";
import { type ReviewFacts, isAncestor, reviewFacts } from "./facts";
import { type Landing, type MergeStrategy, planLanding } from "./strategies";
import { type SandboxedWorktree, branchHolder, dirtyCheckoutError, landOnBranch } from "./land";
import { readAll } from "../sessions/rows";
import { adoptWorkCommit, commitWork, snapshotWork, uncommittedPaths } from "./work";
import { dispatchHint } from "./dispatch";
import { committedSpexConfig, spexConfigRefusal } from "./spex-config";

export interface MergeOptions {
  strategy?: MergeStrategy;
  message?: string;
  /** Commit the session's uncommitted work first (otherwise it refuses, `worktree_dirty`). */
  includeUncommitted?: boolean;
  /** Close the session once its branch landed. */
  close?: boolean;
  into?: string;
}

export interface MergeResult {
  id: string;
  label: string;
  branch: string;
  into: string;
  strategy: MergeStrategy;
  landing: Landing;
  /** The main branch before and after ("" after for `none`). */
  before: string;
  after: string;
  /** The session's tip that landed. */
  branchHead: string;
  commits: number;
  /** The commit made of the uncommitted work ("" when none). */
  workCommit: string;
  /** The checkout whose files followed the branch ("" when no checkout has it out). */
  checkout: string;
  timelineSeq: number;
  /**
   * The earlier merge that already landed this very tip on this branch, when
   * this one changed nothing for that reason (landing `none`); null otherwise.
   */
  alreadyLanded: { at: string; landing: string; after: string; timelineSeq: number } | null;
  closed: boolean;
  close?: CloseResult;
}

/** A branch that keeps moving under us is given up on after this many plans. */
const PLAN_ATTEMPTS = 3;

function defaultMessage(f: ReviewFacts, strategy: MergeStrategy, subjects: string[]): string {
  if (strategy === "squash") {
    const list = subjects.map((s) => `- ${s}`).join("\n");
    return `${f.label}\n\nSquashed from ${f.branch} (spex session ${f.id.slice(0, 8)})${list ? `:\n${list}` : ""}\n`;
  }
  return `Merge ${f.branch} into ${f.into}\n\nspex session ${f.id.slice(0, 8)}: ${f.label}\n`;
}

function subjectsBetween(root: string, from: string, to: string): string[] {
  const r = gitSync(root, ["log", "--reverse", "--format=%s", `${from}..${to}`, "--"]);
  return r.code === 0 ? r.stdout.split("\n").filter(Boolean) : [];
}

function uncommittedRefusal(f: ReviewFacts, files: string[]): SpexError {
  return new SpexError("worktree_dirty", `session ${f.id.slice(0, 8)}: the worktree ${f.record.worktree_path} has uncommitted work (${files.slice(0, 20).join(", ")}${files.length > 20 ? ", …" : ""}); nothing was merged`, {
    hint: "ask the session to commit it, or merge with --include-uncommitted to commit it as it is first",
    details: { worktree: f.record.worktree_path, files },
  });
}

/**
 * The merge event that already landed `tip` on the main branch, if the branch
 * still holds what it landed. A rebase or a squash lands copies of the
 * session's commits, so git alone cannot tell the work is there: a second run
 * would land it again (a rebase replays nothing and reports one commit).
 */
function landedBefore(store: ProjectStore, f: ReviewFacts, tip: string): MergeResult["alreadyLanded"] {
  const e = lastMergeEvent(store, f.id);
  if (!e || e.into !== f.into || e.branchHead !== tip || !e.after) return null;
  if (!isAncestor(store.root, e.after, f.intoHead)) return null;
  return { at: e.at, landing: e.landing, after: e.after, timelineSeq: e.seq };
}

async function mergeLocked(store: ProjectStore, id: string, opts: MergeOptions, strategy: MergeStrategy): Promise<Omit<MergeResult, "closed" | "close">> {
  const root = store.root;
  const f = await reviewFacts(store, id, opts.into);
  // Refusals, before anything is written: uncommitted work is refused from
  // `git status` alone, before a byte of it is staged (it may be a 400 MB log).
  const pending = f.hasWorktree ? uncommittedPaths(root, f.record.worktree_path, f.record.harness, !!f.record.sandbox) : [];
  if (pending.length > 0 && !opts.includeUncommitted) throw uncommittedRefusal(f, pending);
  const snap = pending.length > 0 ? snapshotWork(root, f.record.worktree_path, f.record.harness, f.branch, { sandboxed: !!f.record.sandbox }) : undefined;
  if (snap && snap.files.length > 0) {
    if (!snap.onBranch || snap.head !== f.head) {
      throw new SpexError("worktree_off_branch", `session ${f.id.slice(0, 8)}: its worktree does not have ${f.branch} checked out at its tip, so its uncommitted work cannot be committed there; nothing was merged`, {
        hint: `check out ${f.branch} in ${f.record.worktree_path}, or commit the work yourself`,
        details: { worktree: f.record.worktree_path, branch: f.branch },
      });
    }
  }
  // Landed already (and nothing new to commit): say so and change nothing, before the main checkout is even asked.
  const landed = pending.length === 0 ? landedBefore(store, f, f.head) : null;
  if (landed) {
    return { id: f.id, label: f.label, branch: f.branch, into: f.into, strategy, before: f.intoHead, branchHead: f.head, workCommit: "", landing: "none", after: "", commits: 0, checkout: "", timelineSeq: 0, alreadyLanded: landed };
  }
  const sandboxed = sandboxedWorktrees(store);
  const holder = branchHolder(root, f.into, sandboxed);
  if (holder && holder.dirty.length > 0) throw dirtyCheckoutError(f.into, holder);

  // The work commit is made now but adopted by the branch only once the merge is known to be clean.
  const workCommit = snap && snap.files.length > 0 ? commitWork(root, snap, `Uncommitted work of ${f.label}\n\nCommitted by spex session merge --include-uncommitted.\n`) : "";
  const tip = workCommit || f.head;
  // spex's hooks an agent committed (or staged, for --include-uncommitted) carry this machine's paths:
  // they never reach the main branch unseen. The work commit is not on the branch yet: a refusal leaves it unreachable.
  const spexConfig = committedSpexConfig(root, f, tip);
  if (spexConfig.length > 0) throw spexConfigRefusal(f, spexConfig, tip !== f.head && committedSpexConfig(root, f, f.head).length === 0);
  let before = f.intoHead;
  for (let attempt = 1; ; attempt++) {
    const message = opts.message ? `${opts.message.replace(/\n*$/, "")}\n` : defaultMessage(f, strategy, subjectsBetween(root, before, tip));
    const plan = planLanding({ root, strategy, before, tip, message, into: f.into, branch: f.branch });
    if (workCommit && attempt === 1) adoptWorkCommit(root, f.record.worktree_path, f.branch, snap!, workCommit);
    const base = { id: f.id, label: f.label, branch: f.branch, into: f.into, strategy, before, branchHead: tip, workCommit, alreadyLanded: null };
    if (plan.landing === "none") {
      // The tip is on `into` itself: git alone shows it merged, nothing to record.
      if (isAncestor(root, tip, before)) return { ...base, landing: "none", after: "", commits: 0, checkout: "", timelineSeq: 0 };
      // Its changes are there as copies (a squash or rebase whose merge event a crash lost, or one made
      // outside spex): record that, so close counts the branch as merged instead of refusing it as unmerged.
      const event = appendEvent(store, f.id, { kind: "merge", into: f.into, landing: "none", branch: f.branch, branchHead: tip, before, after: before, commits: 0, workCommit });
      writeMergedMark(store, f.id, { branchHead: tip, into: f.into, at: event.at });
      return { ...base, landing: "none", after: "", commits: 0, checkout: "", timelineSeq: event.seq };
    }
    // A rebase lands what it replayed (git drops patches the main branch already has), not every commit of the branch.
    const counted = plan.landing === "rebase" ? plan.after : tip;
    const commits = Number(gitSync(root, ["rev-list", "--count", `${before}..${counted}`]).stdout.trim()) || 0;
    const outcome = landOnBranch(root, f.into, before, plan.after, `spex merge ${f.branch} (${plan.landing})`, sandboxed);
    if (outcome.kind === "landed") {
      faultPoint("merge-landed");
      const event = appendEvent(store, f.id, {
        kind: "merge",
        into: f.into,
        landing: plan.landing,
        branch: f.branch,
        branchHead: tip,
        before,
        after: plan.after,
        commits,
        workCommit,
      });
      // The row's "merged" (lib/sessions/merged.ts): a mark beside the event, read with one open per row.
      writeMergedMark(store, f.id, { branchHead: tip, into: f.into, at: event.at });
      return { ...base, landing: plan.landing, after: plan.after, commits, checkout: outcome.checkout, timelineSeq: event.seq };
    }
    if (attempt >= PLAN_ATTEMPTS) {
      throw new SpexError("merge_raced", `${f.into} kept moving while the merge was being made; nothing was merged`, {
        hint: "run the merge again",
        details: { into: f.into },
      });
    }
    const now = gitSync(root, ["rev-parse", "--verify", "-q", `refs/heads/${f.into}^{commit}`]).stdout.trim();
    before = now;
  }
}

export async function mergeSession(store: ProjectStore, id: string, opts: MergeOptions = {}): Promise<MergeResult> {
  const strategy = opts.strategy ?? "merge";
  const first = await reviewFacts(store, id, opts.into);
  // An older git answers merge-tree --write-tree with its usage text: refuse before any lock or write.
  requireGit("spex session merge");
  const locks = [recordLockPath(store, id), ...resourceLockPaths(store, first.record), ...resourceLockPaths(store, { branch: first.into, worktree_path: "" })];
  const merged = await withLocks(locks, () => mergeLocked(store, id, opts, strategy), { purpose: `merge ${id}` }).catch((e: unknown) => {
    // What only a person or the session's agent can resolve: say that the agent can be handed it.
    if (e instanceof SpexError && (e.code === "merge_conflict" || e.code === "merge_raced")) {
      throw new SpexError(e.code, e.message, { hint: `${e.hint}, ${dispatchHint(id)}`, details: e.details, exitCode: e.exitCode, httpStatus: e.httpStatus });
    }
    throw e;
  });
  if (!opts.close) return { ...merged, closed: false };
  faultPoint("merge-before-close");
  try {
    const close = await closeSession(store, id);
    return { ...merged, closed: true, close };
  } catch (e) {
    if (!(e instanceof SpexError)) throw e;
    // The merge stands; say so along with why the close did not happen.
    const landed = merged.landing === "none" ? `${merged.branch} was already on ${merged.into}` : `merged ${merged.branch} into ${merged.into}`;
    throw new SpexError(e.code, `${landed}, but the close was refused: ${e.message}`, {
      hint: e.hint,
      details: { ...e.details, merge: merged },
      exitCode: e.exitCode,
      httpStatus: e.httpStatus,
    });
  }
}

/** The project's sandboxed worktrees, read once and only when a checkout other than the main one holds the branch. */
function sandboxedWorktrees(store: ProjectStore): SandboxedWorktree {
  let paths: Set<string> | undefined;
  return (path) => (paths ??= new Set(readAll(store).flatMap((r) => (r.kind === "ok" && r.record.sandbox ? [r.record.worktree_path] : [])))).has(path);
}
