// The git half of a create: the worktree folder and its branch, each noted on
// the receipt only once it is known that this create made it.
import { mkdirSync } from "node:fs";
import { addWorktree, resolveRefs } from "../git";
import { mkdirNoFollow, splitUnder } from "../nofollow";
import type { ProjectStore } from "../store";
import { type CreateReceipt, noteMade } from "./receipt";
import type { SessionNames } from "./names";

/** The worktree root: inside the checkout it is made without following a link; elsewhere it is the user's own path. */
export function makeWorktreeRoot(mainRoot: string, worktreeRoot: string): void {
  const { root, rel } = splitUnder(mainRoot, worktreeRoot);
  if (root === mainRoot) mkdirNoFollow(root, rel);
  else mkdirSync(worktreeRoot, { recursive: true });
}

/**
 * `git worktree add -b`. Both names were free under the project and resource
 * locks; git makes the branch before it checks the folder, so a failed add
 * made the branch exactly when the branch exists now.
 */
export async function makeWorktree(store: ProjectStore, receipt: CreateReceipt, names: SessionNames, start: string): Promise<void> {
  try {
    // The child-only defer marker: post-checkout must not render before the local config is copied.
    await addWorktree(store.root, names.worktree, names.branch, start, { SPEX_DEFER_RENDER: "1" });
  } catch (error) {
    const refs = await resolveRefs(store.root, [`refs/heads/${names.branch}`]).catch(() => new Map<string, string>());
    if (refs.has(`refs/heads/${names.branch}`)) noteMade(store, receipt, { branch: names.branch }, true);
    throw error;
  }
  noteMade(store, receipt, { branch: names.branch, worktree: names.worktree }, true);
}
