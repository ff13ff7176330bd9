// The git half of a create: the branch, then the worktree on it. One git call
// makes one thing, so its exit status says whether this create made it: a
// `git worktree add -b` that fails may or may not have made the branch, and
// whose branch it then is cannot be told (issue 21 item 10). Each step is
// noted begun on the receipt before git runs (its names were free under the
// locks) and made once git answered; a create killed while git runs is
// rolled back by proof (undo.ts).
import { mkdirSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import { SpexError } from "../errors";
import { mkdirNoFollow, lstatOrAbsent, splitUnder } from "../nofollow";
import type { ProjectStore } from "../store";
import { type CreateReceipt, forgetBegun, noteBegun, noteMade } from "./receipt";
import { branchTip, gitFailed, listWorktrees, runGit } from "./git-run";
import type { SessionNames } from "./names";

/** The worktree root: inside the checkout it is made without following a link; elsewhere it is the user's own path. */
export function makeWorktreeRoot(mainRoot: string, worktreeRoot: string): void {
  const { root, rel } = splitUnder(mainRoot, worktreeRoot);
  if (root === mainRoot) mkdirNoFollow(root, rel);
  else mkdirSync(worktreeRoot, { recursive: true });
}

/** Another actor took a name between the free-name check (under spex's locks, which it does not take) and git. */
function takenSince(what: string): SpexError {
  return new SpexError("name_collision", `${what} appeared after spex found the name free and before git could make it (another process took it)`, {
    hint: "nothing of yours was removed and nothing of the session is left; run the create again (it picks a free name)",
  });
}

/** The repository's post-checkout hook failed: the worktree was checked out, then the hook git runs last exited non-zero. */
function hookFailed(r: { code: number; stderr: string }): SpexError {
  // git ran quiet, so what is on stderr is the hook's (in whatever language it speaks).
  const said = r.stderr.split("\n").filter((l) => l.trim() !== "");
  const tail = said.slice(-10).map((l) => l.trim()).join(" | ");
  const stderr = said.join("\n");
  return new SpexError("post_checkout_failed", `the repository's post-checkout hook failed (exit ${r.code}) when git made the session's worktree${tail ? `: ${tail}` : ""}`, {
    hint: "the hook is yours (git runs it for every new worktree): fix it, or let it succeed in a new worktree, then create the session again",
    details: { exit: r.code, stderr },
  });
}

/** Something at the worktree path that is more than git's own first file. */
function someoneElses(path: string): boolean {
  const st = lstatOrAbsent(path);
  if (!st) return false;
  return !st.isDirectory() || readdirSync(path).some((n) => n !== ".git");
}

/** `git branch <name> <start>`: fails, making nothing, when the name is taken. */
export async function makeBranch(store: ProjectStore, receipt: CreateReceipt, branch: string, start: string): Promise<void> {
  noteBegun(store, receipt, { branch: { name: branch, start } });
  const args = ["branch", "--end-of-options", branch, start];
  const r = await runGit(store.root, args, { SPEX_CREATE_ID: receipt.id });
  if (r.code === 0) return noteMade(store, receipt, { branch }, true);
  // A `git branch` that failed made nothing: whatever holds the name now is someone else's.
  forgetBegun(store, receipt, "branch");
  if ((await branchTip(store.root, branch)) !== undefined) throw takenSince(`the branch ${branch}`);
  throw gitFailed("making the session's branch", args, r);
}

/** `git worktree add <path> <branch>` on the branch makeBranch made. */
export async function makeWorktree(store: ProjectStore, receipt: CreateReceipt, names: SessionNames): Promise<void> {
  noteBegun(store, receipt, { worktree: { path: names.worktree, branch: names.branch } });
  // Quiet: git's own "Preparing worktree" line comes in the user's language, so it could not be told from
  // the hook's words by its text. The locale itself is left alone: the user's hooks run under it.
  const args = ["worktree", "add", "--quiet", "--end-of-options", names.worktree, names.branch];
  // The child-only defer marker: post-checkout must not render before the local config is copied.
  const r = await runGit(store.root, args, { SPEX_DEFER_RENDER: "1", SPEX_CREATE_ID: receipt.id });
  if (r.code === 0) return noteMade(store, receipt, { worktree: names.worktree }, true);
  const entry = (await listWorktrees(store.root).catch(() => [])).find((e) => resolve(e.path) === resolve(names.worktree));
  // Registered on the branch and unlocked: git checked it out, and the one thing it runs after that failed.
  if (entry && entry.branch === `refs/heads/${names.branch}` && !entry.locked) {
    noteMade(store, receipt, { worktree: names.worktree }, true);
    throw hookFailed(r);
  }
  // A folder git refused to fill (not empty): someone else's, made since the names were checked.
  if (!entry && someoneElses(names.worktree)) {
    forgetBegun(store, receipt, "worktree");
    throw takenSince(`the folder ${names.worktree}`);
  }
  // Anything git left of a failure of its own stays noted begun: the rollback proves it and removes it.
  throw gitFailed("making the session's worktree", args, r);
}
