import { Option } from "clipanion";
import { SpexCommand } from "./base";
import { SpexError } from "../lib/errors";

export class BoardCommand extends SpexCommand {
  static paths = [["board"], ["b"]];
  static usage = SpexCommand.Usage({
    category: "Sessions",
    description: "a full-screen board of the sessions: a live preview, one key per action",
    details: `
      The sessions of this repository as a tree (children under their parent, group headers), each row in the words and colours of \`spex session ls\`, most urgent first (asking, error and proposals, then working, idle, queued, offline; \`o\` toggles the plain \`ls\` order). Below (or beside, on a wide terminal) the selected session's screen, read once a second. Keys: ↑↓/j k move, Enter attach, n new, s send, d diff, m merge, x stop, a archive/restore, r resume, c close, t terminal, / filter, g group, ? help, q quit; the destructive ones ask y/N. docs/board.md has them all.

      It draws on the alternate screen and leaves the terminal as it found it (q, Ctrl-C, a signal or a crash). It needs a terminal: with output to a pipe or a file it prints nothing and fails (\`board_needs_terminal\`); use \`spex session ls\` there. On a terminal that cannot move its cursor (\`TERM=dumb\` or unset) it refuses with \`not_a_terminal\`. \`--no-color\` or a non-empty \`NO_COLOR\` draws without colour.
    `,
    examples: [
      ["Open the board", "spex board"],
      ["The same, archived sessions shown, no colour", "spex b --all --no-color"],
      ["Every machine's sessions (those of `spex machine ls` too)", "spex board --all-machines"],
      ["In a tmux popup (a binding for ~/.tmux.conf)", `bind-key S display-popup -E -w 90% -h 90% "spex board"`],
    ],
  });

  all = Option.Boolean("--all", false, { description: "Show archived sessions too (A toggles them on the board)" });
  allMachines = Option.Boolean("--all-machines", false, { description: "List the sessions of every machine of `spex machine ls` too, with a MACHINE column (their keys say the command to run there)" });
  color = Option.Boolean("--color", true, { description: "Colour the board (--no-color, or NO_COLOR set, turns it off)" });

  async execute(): Promise<number> {
    if (this.json) throw new SpexError("usage", "spex board is a screen for people and has no JSON", { hint: "use `spex session ls --json`", exitCode: 2 });
    // Loaded here, not at the top: no other verb pays for the board's code at startup.
    const { runBoard } = await import("../lib/board");
    return runBoard({ stdout: process.stdout, stdin: process.stdin, stderr: process.stderr, env: this.context.env, color: this.color, all: this.all, allMachines: this.allMachines });
  }
}
