import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { printable, writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { resolveSelector } from "../../lib/sessions";
import { archiveSession, describeRuntime } from "../../lib/teardown";

export class SessionArchiveCommand extends SpexCommand {
  static paths = [["session", "archive"]];
  static usage = SpexCommand.Usage({
    category: "Lifecycle",
    description: "file a session away, capturing its last screen first",
    details: `
      The pane's screen (with some scrollback) is saved to the session's \`last-screen.txt\`, shown by \`spex session show\`, and the row is hidden from \`ls\` (\`ls --all\` shows it). A live pane keeps running unless \`--stop\` is given, which stops it exactly like \`spex session stop\`.
    `,
    examples: [
      ["Archive a finished session", "spex session archive 3f2a"],
      ["Archive and stop its agent", "spex session archive 3f2a --stop"],
    ],
  });

  selector = Option.String({ name: "SEL" });
  stop = Option.Boolean("--stop", false, { description: "Also stop the agent and its tmux session" });

  async execute(): Promise<number> {
    const store = currentProject();
    const { id } = resolveSelector(store, this.selector);
    const { change: _change, ...result } = await archiveSession(store, id, { stop: this.stop });
    if (this.json) {
      writeJson(this.context.stdout, result);
      return 0;
    }
    const screen = result.screenBytes === null ? "no pane to capture" : `last screen saved (${result.screenBytes} bytes)`;
    const stop = result.runtime ? `; ${describeRuntime(result.runtime)}` : "";
    this.context.stdout.write(printable(`archived ${id.slice(0, 8)}: ${screen}${stop}`) + "\n");
    return 0;
  }
}
