import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { RemotableCommand } from "../remotable";
import type { RemoteSpec } from "../../lib/machines";
import { printable, writeJson } from "../../lib/cli/output";
import { SpexError } from "../../lib/errors";
import { type ProjectStore, currentProject } from "../../lib/store";
import { resolveSender } from "../../lib/comms";
import { resolveSelector } from "../../lib/sessions";
import { type MergeStrategy, describeMerge, dispatchMerge, mergeSession } from "../../lib/review";

export class SessionMergeCommand extends RemotableCommand {
  static paths = [["session", "merge"]];
  static remote: RemoteSpec = { selectors: "selector" };
  static usage = SpexCommand.Usage({
    category: "Review",
    description: "land a session's branch on the main branch, without touching your checkout's work",
    details: `
      Merges the session's branch into the main branch (the branch sessions fork from, decided as \`spex session new\` decides it; \`mainBranch\` in spexcode.json pins it, \`--into\` names another). By default a fast-forward when possible, else a merge commit; \`--squash\` makes one commit of the work, \`--ff-only\` refuses anything but a fast-forward (\`merge_not_fast_forward\`), \`--rebase\` replays the session's commits on the main branch.

      The merge is computed without a checkout (\`git merge-tree\`; a rebase in a throwaway worktree) and the branch moves last, by compare-and-swap. A conflict changes nothing and names the files (\`merge_conflict\`). If a checkout has the main branch out, it follows the merge when it is clean; with uncommitted changes to tracked files it is left alone and the merge refuses (\`main_checkout_dirty\`). A checkout on another branch is never touched.

      When the merge refuses for what only the work's author can settle (\`merge_conflict\`, \`merge_raced\`), \`--by-agent\` hands the landing to the session's own agent instead: it is sent (as \`spex session send\` sends, so it waits for the agent to be at rest) a prompt to bring the main branch, as verified now, into its branch (\`git rebase\` or \`git merge\`; \`--rebase\` asks for a rebase), resolve the conflicts, run the tests and land it with \`spex session merge\`; then to end with \`spex session done --propose close\` only when its task is settled, its worktree no longer needed and nothing is left for a person, and otherwise to declare what is true. Nothing is merged by this command itself. A branch already on the main branch sends nothing; a \`shell\` session (which would run the prompt as commands) is refused (\`agent_required\`).

      Uncommitted work in the session's worktree refuses the merge (\`worktree_dirty\`) unless \`--include-uncommitted\` commits it on the session's branch first (no commit hooks run). The merge is recorded on the session's timeline, and \`close\` then counts the landed commits as merged, even after a squash or a rebase. \`--close\` closes the session once its branch landed.
    `,
    examples: [
      ["Merge a session proposing merge, then close it", "spex session merge 3f2a --close"],
      ["Squash the work into one commit with a message", 'spex session merge 3f2a --squash --message "Add the import command"'],
      ["Commit what is left in the worktree, rebase, and answer as JSON", "spex session merge 3f2a --include-uncommitted --rebase --json"],
      ["After a merge_conflict: ask the session's agent to land its branch itself", "spex session merge 3f2a --by-agent"],
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
  byAgent = Option.Boolean("--by-agent", false, { description: "Send the session's agent a prompt to land its own branch (after a conflict); merges nothing here" });

  async execute(): Promise<number> {
    const chosen = (["squash", "ffOnly", "rebase"] as const).filter((k) => this[k]);
    if (chosen.length > 1) throw new SpexError("usage", "give at most one of --squash, --ff-only and --rebase", { exitCode: 2, httpStatus: 400 });
    const strategy: MergeStrategy = this.squash ? "squash" : this.ffOnly ? "ff-only" : this.rebase ? "rebase" : "merge";
    const store = currentProject();
    const { id } = resolveSelector(store, this.selector);
    if (this.byAgent) return this.dispatch(store, id);
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

  private async dispatch(store: ProjectStore, id: string): Promise<number> {
    const others = (["squash", "ffOnly", "close", "includeUncommitted"] as const).filter((k) => this[k]);
    if (others.length > 0 || this.message !== undefined) {
      throw new SpexError("usage", "--by-agent takes only --into and --rebase: the agent lands the branch, with spex session merge, itself", { exitCode: 2, httpStatus: 400 });
    }
    const r = await dispatchMerge(store, id, { into: this.into, rebase: this.rebase, from: resolveSender(store, undefined) });
    if (this.json) writeJson(this.context.stdout, r);
    else if (!r.dispatched) this.context.stdout.write(printable(`${r.branch} is already on ${r.into}: nothing to hand to ${r.label}\n`));
    else {
      const m = r.message!;
      const state = `${m.state}${m.reason ? ` (${m.reason})` : ""}`;
      const conflicts = r.conflicts.length > 0 ? `, ${r.conflicts.length} conflicting file${r.conflicts.length === 1 ? "" : "s"}` : "";
      this.context.stdout.write(printable(`asked ${r.label} (${id.slice(0, 8)}) to land ${r.branch} on ${r.into} at ${r.intoHead.slice(0, 10)} itself${conflicts}: message ${m.messageId} ${state}\n`));
      this.context.stdout.write(`follow it with \`spex session wait ${id.slice(0, 8)} --until review,done,close-pending,parked,asking\`\n`);
    }
    return r.message?.state === "held" ? 3 : 0;
  }
}
