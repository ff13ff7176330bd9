import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { printable, writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { closeTerminal, finishInterruptedTerminalClose, resolveTerminal } from "../../lib/terminals";
import { SpexError } from "../../lib/errors";

export class TerminalCloseCommand extends SpexCommand {
  static paths = [["terminal", "close"]];
  static usage = SpexCommand.Usage({
    category: "Terminals",
    description: "end a terminal and remove its record",
    details: `
      Kills the terminal's tmux session (whatever runs in it ends), proves no pane of it is left, then removes its record. A terminal whose tmux session is already gone, or whose record is corrupt, just loses its record. Closing a session closes the terminals opened beside it. A close killed after its record went out of sight (a hidden \`terminals/.closed-<id>.json-…\` file) is finished by the next terminal close, and closing that terminal again says so.
    `,
    examples: [
      ["Close a terminal by id prefix", "spex terminal close 7c1e"],
      ["By name, as JSON", "spex terminal close tests --json"],
    ],
  });

  selector = Option.String({ name: "ID" });

  async execute(): Promise<number> {
    const store = currentProject();
    let reading;
    try {
      reading = resolveTerminal(store, this.selector);
    } catch (e) {
      if (!(e instanceof SpexError && e.code === "terminal_not_found")) throw e;
      // A close killed after its record went out of sight: finished here, and said so when it was this one.
      const done = finishInterruptedTerminalClose(store, this.selector);
      if (!done) throw e;
      if (this.json) writeJson(this.context.stdout, { id: done, closed: true, finishedInterrupted: true });
      else this.context.stdout.write(printable(`closed terminal ${done.slice(0, 8)}: finished a close that was interrupted after its record was removed\n`));
      return 0;
    }
    const result = closeTerminal(store, reading);
    if (this.json) writeJson(this.context.stdout, { ...result, closed: true });
    else {
      const tmux = result.tmux === "killed" ? "tmux session ended" : result.tmux === "absent" ? "tmux session already gone" : "corrupt record";
      this.context.stdout.write(printable(`closed terminal ${result.id.slice(0, 8)}${result.name ? ` (${result.name})` : ""}: ${tmux}, record removed`) + "\n");
    }
    return 0;
  }
}
