import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { RemotableCommand } from "../remotable";
import type { RemoteSpec } from "../../lib/machines";
import { printable, writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { resolveSelector } from "../../lib/sessions";
import { describeDiffFiles, diffSession } from "../../lib/review";

export class SessionDiffCommand extends RemotableCommand {
  static paths = [["session", "diff"]];
  static remote: RemoteSpec = { selectors: "selector" };
  static usage = SpexCommand.Usage({
    category: "Review",
    description: "show a session's work against the point its branch forked from",
    details: `
      The patch of the session's branch against its fork point (its pinned base, else where its branch and the main branch part): what \`spex session merge\` would land. \`--worktree\` adds the uncommitted work of its worktree (staged, unstaged and untracked files; not ignored ones, not the hook files spex rendered there) without touching its index. \`--stat\` prints a summary instead of the patch. \`--json\` gives \`files\` (path, status, additions, deletions, binary), the totals, the fork point and the tip, and the patch (or the stat).

      The patch is the agent's text, shown as is but with control characters made visible.
    `,
    examples: [
      ["The patch of a session's branch", "spex session diff 3f2a"],
      ["A summary including uncommitted work", "spex session diff 3f2a --stat --worktree"],
      ["Files with their line counts, as JSON", "spex session diff . --json"],
    ],
  });

  selector = Option.String({ name: "SEL" });
  stat = Option.Boolean("--stat", false, { description: "Print a summary per file instead of the patch" });
  worktree = Option.Boolean("--worktree", false, { description: "Include the worktree's uncommitted work" });
  into = Option.String("--into", { description: "Compare with the fork point from this branch instead of the main branch" });

  async execute(): Promise<number> {
    const store = currentProject();
    const { id } = resolveSelector(store, this.selector);
    const diff = await diffSession(store, id, { worktree: this.worktree, stat: this.stat, into: this.into });
    if (this.json) {
      writeJson(this.context.stdout, diff);
      return 0;
    }
    const out = this.context.stdout;
    if (diff.files.length === 0) {
      out.write(`${diff.branch}: no changes against ${diff.forkPoint.slice(0, 10)} (its fork point from ${diff.into})\n`);
      return 0;
    }
    if (this.stat) out.write(printable(diff.stat ?? describeDiffFiles(diff)));
    else out.write(printable(diff.patch ?? ""));
    return 0;
  }
}
