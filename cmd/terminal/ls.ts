import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { commandLine } from "../../lib/tmux/quote";
import { formatTable, writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { resolveSelector } from "../../lib/sessions";
import { type TerminalListRow, listTerminals } from "../../lib/terminals";

const STATE_NOTE: Record<string, string> = {
  exited: "its program exited; `spex terminal read` shows its last screen",
  gone: "its tmux session no longer exists; `spex terminal close` removes the record",
  unknown: "tmux could not be asked about it",
};

export class TerminalLsCommand extends SpexCommand {
  static paths = [["terminal", "ls"], ["terminal", "list"]];
  static usage = SpexCommand.Usage({
    category: "Terminals",
    description: "list the terminals of this repository",
    details: `
      One row per terminal: its short id, state, name, the session it sits beside and what it runs (its argv, quoted as a POSIX shell would need it to run the same words). States: \`running\`; \`exited\` (its program ended; the last screen is kept); \`gone\` (its tmux session no longer exists, e.g. the tmux server was killed: close it to drop the record); \`corrupt\` (its record cannot be read; close removes it). A terminal whose session record is gone shows the session as \`(closed)\`.
    `,
    examples: [
      ["Every terminal", "spex terminal ls"],
      ["Those beside one session, as JSON", "spex terminal ls --session auth-fixer --json"],
    ],
  });

  session = Option.String("--session", { description: "Only the terminals beside this session" });

  async execute(): Promise<number> {
    const store = currentProject();
    const session = this.session ? resolveSelector(store, this.session).id : undefined;
    const rows: TerminalListRow[] = listTerminals(store, { session });
    if (this.json) {
      writeJson(this.context.stdout, rows);
      return 0;
    }
    if (rows.length === 0) {
      this.context.stdout.write("no terminals\n");
      return 0;
    }
    const table = rows.map((r) =>
      r.kind === "corrupt"
        ? [r.shortId, "corrupt", "", "", r.error]
        : [r.shortId, r.state, r.name, r.sessionLabel || "(main checkout)", r.command.length > 0 ? commandLine(r.command) : "(shell)"],
    );
    const notes = rows.map((r) => (r.kind === "corrupt" ? r.file : STATE_NOTE[r.state]));
    this.context.stdout.write(formatTable(["ID", "STATE", "NAME", "SESSION", "RUNS"], table, { notes }));
    return 0;
  }
}
