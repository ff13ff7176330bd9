import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { RemotableCommand } from "../remotable";
import type { RemoteSpec } from "../../lib/machines";
import { printable, writeJson } from "../../lib/cli/output";
import { SpexError } from "../../lib/errors";
import { currentProject } from "../../lib/store";
import { resolveSelector } from "../../lib/sessions";
import { type MergeStrategy, describeMerge, mergeSession } from "../../lib/review";

export class SessionMergeCommand extends RemotableCommand {
  static paths = [["session", "merge"]];
  static remote: RemoteSpec = { selectors: "selector" };
  static usage = SpexCommand.Usage({
    category: "Review",
    description: "land a session's branch on the main branch, without touching your checkout's work",
    details: `
      Merges the session's branch into the main branch (the branch sessions fork from, decided as \`spex session new\` decides it; \`mainBranch\` in spexcode.json pins it, \`--into\` names another). By default a fast-forward when possible, else a merge commit; \`--squash\` makes one commit of the work, \`--ff-only\` refuses anything but a fast-forward (\`merge_not_fast_forward\`), \`--rebase\` replays the session's commits on the main branch.

      The merge is computed without a checkout (\`git merge-tree\`; a rebase in a throwaway worktree) and the branch moves last, by compare-and-swap. A conflict changes nothing and names the files (\`merge_conflict\`). If a checkout has the main branch out, it follows the merge when it is clean; with uncommitted changes to tracked files it is left alone and the merge refuses (\`main_checkout_dirty\`). A checkout on another branch is never touched.

      Uncommitted work in the session's worktree refuses the merge (\`worktree_dirty\`) unless \`--include-uncommitted\` commits it on the session's branch first (no commit hooks run). The merge is recorded on the session's timeline, and \`close\` then counts the landed commits as merged, even after a squash or a rebase. \`--close\` closes the session once its branch landed.
    `,
    examples: [
      ["Merge a session proposing merge, then close it", "spex session merge 3f2a --close"],
      ["Squash the work into one commit with a message", 'spex session merge 3f2a --squash --message "Add the import command"'],
      ["Commit what is left in the worktree, rebase, and answer as JSON", "spex session merge 3f2a --include-uncommitted --rebase --json"],
    ],
  });

  selector = Option.String({ name: "SEL" });
  squash = Option.Boolean("--squash", false, { description: "Land the work as one commit" });
  ffOnly = Option.Boolean("--ff-only", false, { description: "Only fast-forward; refuse otherwise" });
  rebase = Option.Boolean("--rebase", false, { description: "Replay the session's commits on the main branch" });
  close = Option.Boolean("--close", false, { description: "Close the session after a successful merge" });
  message = Option.String("--message,-m", { description: "Message of the merge or squash commit" });
  includeUncommitted = Option.Boolean("--include-uncommitted", false, { description: "Commit the worktree's uncommitted work first" });
  into = Option.String("--into", { description: "Land on this branch instead of the main branch" });

  async execute(): Promise<number> {
    const chosen = (["squash", "ffOnly", "rebase"] as const).filter((k) => this[k]);
    if (chosen.length > 1) throw new SpexError("usage", "give at most one of --squash, --ff-only and --rebase", { exitCode: 2, httpStatus: 400 });
    const strategy: MergeStrategy = this.squash ? "squash" : this.ffOnly ? "ff-only" : this.rebase ? "rebase" : "merge";
    const store = currentProject();
    const { id } = resolveSelector(store, this.selector);
    const result = await mergeSession(store, id, {
      strategy,
      close: this.close,
      message: this.message,
      includeUncommitted: this.includeUncommitted,
      into: this.into,
    });
    if (this.json) writeJson(this.context.stdout, result);
    else this.context.stdout.write(printable(describeMerge(result)));
    return 0;
  }
}
