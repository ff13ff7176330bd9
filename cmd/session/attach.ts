import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { RemotableCommand } from "../remotable";
import type { RemoteSpec } from "../../lib/machines";
import { currentProject } from "../../lib/store";
import { resolveSelector } from "../../lib/sessions";
import { SpexError } from "../../lib/errors";
import { hasSession } from "../../lib/tmux";
import { attachTerminal } from "../../lib/tmux/attach";

export class SessionAttachCommand extends RemotableCommand {
  static paths = [["session", "attach"]];
  static remote: RemoteSpec = { selectors: "selector", tty: true };
  static usage = SpexCommand.Usage({
    category: "Sessions",
    description: "attach this terminal to a session's tmux pane",
    details: `
      Outside tmux this attaches to the session's tmux server. Inside tmux it never nests a client: on the same server it switches your client to the session; on another server (spex's own socket, the default) it opens the session in a popup (tmux 3.2 or later; a new window before that). Detach with the tmux prefix then \`d\`.

      Without a terminal (its input piped or redirected) it refuses with \`not_a_terminal\`; inside tmux with no client attached to show it in (a script tmux runs), with \`tmux_no_client\`. \`spex session read\` prints the screen anywhere.
    `,
    examples: [
      ["Attach by id prefix", "spex session attach 3f2a"],
      ["Attach by name", "spex session attach auth-fixer"],
    ],
  });

  selector = Option.String({ name: "SEL" });

  async execute(): Promise<number> {
    const store = currentProject();
    const reading = resolveSelector(store, this.selector);
    if (reading.kind !== "ok") throw new SpexError("record_corrupt", `session ${reading.id} has a corrupt record`, { hint: "see `spex session show`" });
    const { tmux_socket: socket, tmux_session: name } = reading.record;
    if (!name || !hasSession(socket, name)) {
      throw new SpexError("session_not_running", `session ${reading.id.slice(0, 8)} has no running tmux session`, {
        hint: `start it with \`spex session resume ${reading.id.slice(0, 8)}\``,
      });
    }
    const id8 = reading.id.slice(0, 8);
    return attachTerminal(socket, name, { read: `spex session read ${id8}`, attach: `spex session attach ${id8}` }).code;
  }
}
