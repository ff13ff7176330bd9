import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { RemotableCommand } from "../remotable";
import type { RemoteSpec } from "../../lib/machines";
import { reportWarning, writeJson } from "../../lib/cli/output";
import { renderSessionTable } from "../../lib/cli/session-table";
import { terminalOf } from "../../lib/cli/terminal";
import { currentProject } from "../../lib/store";
import { listSessions } from "../../lib/verbs/list";

export class SessionLsCommand extends RemotableCommand {
  static paths = [["session", "ls"], ["session", "list"]];
  static remote: RemoteSpec = { selectors: "selectors" };
  static usage = SpexCommand.Usage({
    category: "Sessions",
    description: "list the sessions of this repository",
    details: `
      One row per session: its short id, display status, age (since it was created), label, branch and a one-line preview of its prompt (for an unnamed session, whose label is the prompt's first line, what follows that line). A proposal whose agent is no longer running says so (\`review · offline\`), and a session whose branch \`spex session merge\` landed says \`merged\` until the branch has commits of its own again (\`merged\` in JSON). A session waiting in the launch queue shows \`queued #N\` (N = 1 launches next; \`queuePosition\` in JSON); listing also launches queued sessions when slots are free. A child is listed under its parent, indented; a GROUP column appears when any session is filed in a group. Archived sessions are hidden unless \`--all\` is given (a last line says how many, \`2 archived (--all)\`), and marked \`(archived)\` when shown. A record that cannot be used keeps its row, shown as \`corrupt\` (unparseable bytes, not a regular file, not its folder's id) or \`unreadable\` (the system refused the read), with the error and its file on the line below.

      On a terminal the table is fitted to its width (the prompt preview is cut first, never the id) and the status is coloured; \`--no-color\` or a non-empty \`NO_COLOR\` turns colour off, and piped output or \`--json\` never has any.

      \`--status\` filters on the display status or the recorded lifecycle. Display statuses, and how the lifecycle an agent declares shows up here and in \`spex session live\` (whose pane statuses are fixed by the live contract):

      - \`working\`: lifecycle \`active\`; live \`active\`
      - \`idle\`: lifecycle \`idle\` or \`awaiting\`; live \`idle\`
      - \`asking\`, \`error\`: the same lifecycles; live \`needs_attention\`
      - \`parked\`, \`queued\`: the same lifecycles; live \`idle\`
      - \`review\`, \`done\`, \`close-pending\`: a proposal of \`merge\`, \`nothing\`, \`close\` (whatever the lifecycle)
      - \`starting\`: a launch waiting for its agent to be ready
      - \`offline\`: no live agent process (stopped, or it exited); live shows its pane \`idle\` at a shell, \`dead\`, or not at all. The row says why (\`offlineReason\` in JSON): \`· machine_restarted\` (it started before this boot), \`· tmux_server_gone\`, \`· agent_exited\` (it ended on its own), \`· killed\` (stop, close or archive --stop); \`spex session resume --all\` brings back the first three
      - \`retired\`: the worktree is gone; \`corrupt\`: the record is not a usable record; \`unreadable\`: the system refused to read it

      live also says \`needs_attention\` for any pane with a dialog on screen, whatever the lifecycle. \`send\` and the timeline speak in lifecycles (\`the agent is active\` = \`working\`); the tmux status segment and the dashboard use the display statuses.
    `,
    examples: [
      ["List the sessions of this repository", "spex session ls"],
      ["Only those waiting for review or asking a question, as JSON", "spex session ls --status review,asking --json"],
      ["Every session including archived ones", "spex session ls --all"],
    ],
  });

  selectors = Option.Rest({ name: "selector" });
  status = Option.String("--status", { description: "Comma-separated display statuses or lifecycles to keep" });
  all = Option.Boolean("--all", false, { description: "Include archived sessions" });
  color = Option.Boolean("--color", true, { description: "Colour statuses on a terminal (--no-color, or NO_COLOR set, turns it off)" });

  async execute(): Promise<number> {
    const status = this.status === undefined ? undefined : this.status.split(",").map((s) => s.trim()).filter(Boolean);
    const { rows, hiddenArchived, warnings } = await listSessions(currentProject(), { selectors: this.selectors, all: this.all, status });
    for (const warning of warnings) reportWarning(warning, this.context.stderr);
    if (this.json) {
      writeJson(this.context.stdout, rows);
      return 0;
    }
    // Rows left out say so, and how to see them (an archived agent may still be running).
    const hidden = hiddenArchived > 0 ? `${hiddenArchived} archived (--all)` : "";
    if (rows.length === 0) {
      this.context.stdout.write(hidden ? `no sessions; ${hidden}\n` : "no sessions\n");
      return 0;
    }
    const terminal = terminalOf(this.context.stdout, this.context.env);
    this.context.stdout.write(renderSessionTable(rows, { width: terminal.width, color: terminal.color && this.color }));
    if (hidden) this.context.stdout.write(`${hidden}\n`);
    return 0;
  }
}
