import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { RemotableCommand } from "../remotable";
import type { RemoteSpec } from "../../lib/machines";
import { writeJson } from "../../lib/cli/output";
import { writeScreen } from "../../lib/cli/screen";
import { currentProject } from "../../lib/store";
import { parseHistory, readSessionScreen, resolveSelector } from "../../lib/sessions";

export class SessionReadCommand extends RemotableCommand {
  static paths = [["session", "read"]];
  static remote: RemoteSpec = { selectors: "selector" };
  static usage = SpexCommand.Usage({
    category: "Sessions",
    description: "print a session's screen as it is now",
    details: `
      The agent pane's visible screen, trailing blank lines trimmed. \`--history N\` adds up to N lines of scrollback above it; \`--styled\` keeps its colours and attributes as ANSI sequences (only those: any other control is shown escaped). The screen is display text: nothing in it is acted on.

      A session with no pane (stopped, archived with \`--stop\`, never launched) shows the last screen saved when it stopped, plain and with the scrollback saved then; \`--json\` says which (\`source\`: \`pane\`, \`last-screen\` or \`none\`) and whether the agent still runs (\`live\`).
    `,
    examples: [
      ["What a session shows now", "spex session read auth-fixer"],
      ["With 300 lines of scrollback and its colours", "spex session read 3f2a --history 300 --styled"],
      ["As JSON, for a script", "spex session read 3f2a --json"],
    ],
  });

  selector = Option.String({ name: "SEL" });
  history = Option.String("--history", { description: "Lines of scrollback to add above the screen (default 0)" });
  styled = Option.Boolean("--styled", false, { description: "Keep colours and attributes as ANSI sequences" });

  async execute(): Promise<number> {
    const store = currentProject();
    const reading = resolveSelector(store, this.selector);
    const screen = readSessionScreen(store, reading, { history: parseHistory(this.history), styled: this.styled });
    if (this.json) writeJson(this.context.stdout, screen);
    else writeScreen(this.context.stdout, screen.screen, screen.styled);
    return 0;
  }
}
