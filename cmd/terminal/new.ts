import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { commandLine } from "../../lib/tmux/quote";
import { printable, writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { resolveSelector } from "../../lib/sessions";
import { listTerminals, newTerminal } from "../../lib/terminals";

export class TerminalNewCommand extends SpexCommand {
  static paths = [["terminal", "new"], ["terminal", "create"]];
  static usage = SpexCommand.Usage({
    category: "Terminals",
    description: "open a plain shell (or a command) beside the agents",
    details: `
      A terminal is a tmux session of its own on the spex socket, running your login shell, or the command after \`--\` (run as given, no shell). With \`--session\` it opens in that session's worktree and is closed when the session is closed; without, it opens in the main checkout. It has no worktree or branch of its own and does not count toward \`sessions.maxActive\`. \`--dir\` picks a folder relative to that starting point (or an absolute one).

      When the program exits, its last screen is kept until \`spex terminal close\`. \`--json\` answers with the terminal's row, its \`id\` first. Options go before \`--\`: everything after it is the command.
    `,
    examples: [
      ["A shell in a session's worktree", "spex terminal new --session auth-fixer"],
      ["Run the tests in the main checkout, named, as JSON", "spex terminal new --name tests --json -- npm test"],
      ["A shell in a subfolder of a session's worktree", "spex terminal new --session 3f2a --dir services/api"],
    ],
  });

  session = Option.String("--session", { description: "Open it in this session's worktree (closed with the session)" });
  name = Option.String("--name", { description: "A name to address it by (default: <session's name, node or first words>-<n>, or main-<n>); unique, never shaped like an id" });
  dir = Option.String("--dir", { description: "Start in this folder, relative to the worktree or main checkout" });
  command = Option.Rest({ name: "command" });

  async execute(): Promise<number> {
    const store = currentProject();
    const session = this.session ? resolveSelector(store, this.session).id : undefined;
    const record = await newTerminal(store, { session, name: this.name, dir: this.dir, command: this.command });
    const row = listTerminals(store, { id: record.terminal_id })[0];
    if (this.json) {
      writeJson(this.context.stdout, row ?? { id: record.terminal_id, name: record.name });
      return 0;
    }
    const what = record.command.length > 0 ? commandLine(record.command) : "your shell";
    this.context.stdout.write(printable(`opened terminal ${record.terminal_id.slice(0, 8)} (${record.name}): ${what} in ${record.directory}`) + "\n");
    this.context.stdout.write(`attach with \`spex terminal attach ${record.terminal_id.slice(0, 8)}\`\n`);
    return 0;
  }
}
