import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { parseHistory } from "../../lib/sessions";
import { readTerminalScreen, resolveTerminal } from "../../lib/terminals";
import { writeScreen } from "../../lib/cli/screen";

export class TerminalReadCommand extends SpexCommand {
  static paths = [["terminal", "read"]];
  static usage = SpexCommand.Usage({
    category: "Terminals",
    description: "print a terminal's screen as it is now",
    details: `
      The visible screen, trailing blank lines trimmed; \`--history N\` adds up to N lines of scrollback above it, and \`--styled\` keeps colours and attributes as ANSI sequences (only those: any other control is shown escaped). A terminal whose program exited shows the screen it left.
    `,
    examples: [
      ["What a terminal shows", "spex terminal read tests"],
      ["With 500 lines of scrollback and colours, as JSON", "spex terminal read 7c1e --history 500 --styled --json"],
    ],
  });

  selector = Option.String({ name: "ID" });
  history = Option.String("--history", { description: "Lines of scrollback to add above the screen (default 0)" });
  styled = Option.Boolean("--styled", false, { description: "Keep colours and attributes as ANSI sequences" });

  async execute(): Promise<number> {
    const store = currentProject();
    const screen = readTerminalScreen(resolveTerminal(store, this.selector), { history: parseHistory(this.history), styled: this.styled });
    if (this.json) writeJson(this.context.stdout, screen);
    else writeScreen(this.context.stdout, screen.screen, screen.styled);
    return 0;
  }
}
