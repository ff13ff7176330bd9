import { Command, Option } from "clipanion";
import { findCheckout } from "../../lib/git/main-root";
import { projectStore } from "../../lib/store";
import { readAll, sessionAt } from "../../lib/sessions";
import { renderWorktree } from "../../lib/launch/render";
import { worktreeGitEnv } from "../../lib/git/pinned";

/** Git post-checkout: re-render a session worktree's hook config; a no-op anywhere else. */
export class InternalPostCheckoutCommand extends Command {
  static paths = [["internal", "post-checkout"]];

  args = Option.Rest();

  async execute(): Promise<number> {
    if (process.env.SPEX_DEFER_RENDER) return 0;
    try {
      const checkout = findCheckout(process.cwd());
      if (!checkout || checkout.top === checkout.mainRoot) return 0;
      const store = projectStore(checkout.mainRoot);
      const here = sessionAt(readAll(store), process.cwd());
      if (!here || here.kind !== "ok" || here.retired) return 0;
      await renderWorktree(here.record.worktree_path, here.record.harness, store.home, worktreeGitEnv(store.root, here.record.worktree_path));
    } catch {
      // A checkout must never fail because of spex.
    }
    return 0;
  }
}
