import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { RemotableCommand } from "../remotable";
import type { RemoteSpec } from "../../lib/machines";
import { printable, writeJson } from "../../lib/cli/output";
import { terminalOf } from "../../lib/cli/terminal";
import { choosePager, writePaged } from "../../lib/cli/pager";
import { colorPatch, colorStat } from "../../lib/cli/diff-color";
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

      Without \`--worktree\`, uncommitted work in the session's worktree is not in the diff: a line says which files it left out (on stderr after a patch, in place of "no changes" when the branch has none; \`uncommittedNotShown\` in JSON).

      On a terminal the patch is coloured and shown through a pager, chosen as git chooses one: \`GIT_PAGER\`, the repository's \`core.pager\`, \`PAGER\`, else \`less\` with \`LESS=FRX\` (it quits when the patch fits one screen and leaves the screen as it was); an empty pager or \`cat\` turns it off, and so does \`--no-pager\`. \`--no-color\` or a non-empty \`NO_COLOR\` turns colour off. Piped output is neither coloured nor paged.

      The patch is the agent's text, shown as is but with control characters made visible.
    `,
    examples: [
      ["The patch of a session's branch", "spex session diff 3f2a"],
      ["A summary including uncommitted work", "spex session diff 3f2a --stat --worktree"],
      ["Files with their line counts, as JSON", "spex session diff . --json"],
      ["Without the pager", "spex session diff 3f2a --no-pager"],
    ],
  });

  selector = Option.String({ name: "SEL" });
  stat = Option.Boolean("--stat", false, { description: "Print a summary per file instead of the patch" });
  worktree = Option.Boolean("--worktree", false, { description: "Include the worktree's uncommitted work" });
  into = Option.String("--into", { description: "Compare with the fork point from this branch instead of the main branch" });
  pager = Option.Boolean("--pager", true, { description: "Page the patch on a terminal (--no-pager writes it straight out)" });
  color = Option.Boolean("--color", true, { description: "Colour the patch on a terminal (--no-color, or NO_COLOR set, turns it off)" });

  async execute(): Promise<number> {
    const store = currentProject();
    const { id } = resolveSelector(store, this.selector);
    const diff = await diffSession(store, id, { worktree: this.worktree, stat: this.stat, into: this.into });
    if (this.json) {
      writeJson(this.context.stdout, diff);
      return 0;
    }
    const out = this.context.stdout;
    const left = diff.uncommittedNotShown;
    const leftOut = `${left.length} uncommitted file${left.length === 1 ? "" : "s"} (${left.slice(0, 5).join(", ")}${left.length > 5 ? ", …" : ""})`;
    const withWorktree = `\`spex session diff ${id.slice(0, 8)} --worktree\``;
    if (diff.files.length === 0) {
      const none = `${diff.branch}: no ${left.length > 0 ? "committed " : ""}changes against ${diff.forkPoint.slice(0, 10)} (its fork point from ${diff.into})`;
      out.write(printable(left.length > 0 ? `${none}; its worktree has ${leftOut}: ${withWorktree} shows them\n` : `${none}\n`));
      return 0;
    }
    const terminal = terminalOf(out, this.context.env);
    const color = terminal.color && this.color;
    let text = printable(this.stat ? (diff.stat ?? describeDiffFiles(diff)) : (diff.patch ?? ""));
    if (color) text = this.stat ? colorStat(text) : colorPatch(text);
    // Like git: a pager only for a person at a terminal, never for a pipe.
    const pager = terminal.width !== undefined && this.pager ? choosePager(this.context.env, store.root) : undefined;
    writePaged(out, text, pager, this.context.env);
    if (left.length > 0) this.context.stderr.write(printable(`spex: the worktree also has ${leftOut} not in this diff; ${withWorktree} includes them\n`));
    return 0;
  }
}
