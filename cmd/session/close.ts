import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { RemotableCommand } from "../remotable";
import type { RemoteSpec } from "../../lib/machines";
import { printable, writeJson } from "../../lib/cli/output";
import { waitNoticeFor } from "../../lib/cli/wait-notice";
import { currentProject } from "../../lib/store";
import { resolveSelector } from "../../lib/sessions";
import { closeSession, describeClose, describeFreed, finishInterruptedCloses, flushTiming } from "../../lib/teardown";
import { SpexError } from "../../lib/errors";

export class SessionCloseCommand extends RemotableCommand {
  static paths = [["session", "close"]];
  static remote: RemoteSpec = { selectors: "selector" };
  static usage = SpexCommand.Usage({
    category: "Lifecycle",
    description: "end a session for good: stop it, remove its worktree and branch, delete its record",
    details: `
      Close refuses, changing nothing, when the worktree has uncommitted changes (\`worktree_dirty\`) or the branch has commits the main branch lacks (\`branch_unmerged\`), listing what would be lost; \`--force\` closes anyway and reports what it discarded. The agent is stopped under the same guard as \`stop\` (\`leaf_unprovable\` refuses), the tmux session is ended and proven empty before anything is deleted, and any failure keeps the row, worktree and branch.

      A retired session (its worktree already gone) closes record-only; its branch is deleted when merged (or with \`--force\`), otherwise kept.
    `,
    examples: [
      ["Close a merged session", "spex session close 3f2a"],
      ["Close and throw away its unmerged work", "spex session close 3f2a --force"],
      ["Close the session of this worktree, as JSON", "spex session close . --json"],
    ],
  });

  selector = Option.String({ name: "SEL" });
  force = Option.Boolean("--force", false, { description: "Close even with uncommitted changes or unmerged commits" });

  async execute(): Promise<number> {
    const store = currentProject();
    let id: string;
    try {
      id = resolveSelector(store, this.selector).id;
    } catch (e) {
      if (!(e instanceof SpexError && e.code === "session_not_found")) throw e;
      // A close killed after its record went: finished here (closeSession does it for any session it closes),
      // and said so when it was this one.
      const done = (await finishInterruptedCloses(store)).find((f) => f.startsWith(this.selector.toLowerCase()));
      if (!done) throw e;
      if (this.json) writeJson(this.context.stdout, { id: done, closed: true, finishedInterrupted: true });
      else this.context.stdout.write(printable(`closed ${done.slice(0, 8)}: finished a close that was interrupted after its record was removed\n`));
      return 0;
    }
    const result = await closeSession(store, id, { force: this.force, onWait: waitNoticeFor(this.context.stderr, this.json, id) });
    flushTiming(this.context.stderr);
    if (this.json) writeJson(this.context.stdout, { ...result, closed: true });
    else this.context.stdout.write(printable(describeClose(result) + describeFreed(result)));
    return 0;
  }
}
