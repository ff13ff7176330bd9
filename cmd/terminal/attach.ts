import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { currentProject } from "../../lib/store";
import { SpexError } from "../../lib/errors";
import { hasSession } from "../../lib/tmux";
import { attachTerminal } from "../../lib/tmux/attach";
import { resolveTerminal } from "../../lib/terminals";

export class TerminalAttachCommand extends SpexCommand {
  static paths = [["terminal", "attach"]];
  static usage = SpexCommand.Usage({
    category: "Terminals",
    description: "attach this terminal to a spex terminal's tmux session",
    details: `
      The same as \`spex session attach\`: outside tmux it attaches; inside tmux it never nests a client (it switches, or opens a popup on another server). Detach with the tmux prefix then \`d\`; the terminal keeps running.
    `,
    examples: [
      ["Attach by id prefix", "spex terminal attach 7c1e"],
      ["Attach by name", "spex terminal attach tests"],
    ],
  });

  selector = Option.String({ name: "ID" });

  async execute(): Promise<number> {
    const reading = resolveTerminal(currentProject(), this.selector);
    if (reading.kind !== "ok") throw new SpexError("terminal_corrupt", `terminal ${reading.id} has a corrupt record`, { hint: "`spex terminal close` removes it" });
    const { tmux_socket: socket, tmux_session: name } = reading.record;
    if (!hasSession(socket, name)) {
      throw new SpexError("terminal_gone", `the tmux session ${name} of terminal ${reading.record.name} no longer exists`, {
        hint: "`spex terminal close` removes its record; `spex terminal new` opens another",
      });
    }
    return attachTerminal(socket, name).code;
  }
}
