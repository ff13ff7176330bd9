import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { printable, writeJson } from "../../lib/cli/output";
import { textFrom } from "../../lib/cli/input";
import { currentProject } from "../../lib/store";
import { resolveTerminal, sendToTerminal } from "../../lib/terminals";

export class TerminalSendCommand extends SpexCommand {
  static paths = [["terminal", "send"]];
  static usage = SpexCommand.Usage({
    category: "Terminals",
    description: "type text (then Enter) or keys into a terminal",
    details: `
      Text is typed at once, as one bracketed paste followed by Enter (\`--no-enter\` leaves it on the command line); control characters in it (ESC, other C0 but TAB and LF, C1) arrive as visible stand-ins, so the text cannot end its own paste or act on the terminal. \`--keys\` sends tmux key names and plain words instead (Enter, C-c, Up, …); anything else is a usage error. Nothing is typed into a terminal whose program has exited (\`terminal_exited\`) or whose tmux session is gone (\`terminal_gone\`).
    `,
    examples: [
      ["Run a command in a terminal", 'spex terminal send tests "npm test -- --watch=false"'],
      ["Interrupt what runs there", 'spex terminal send 7c1e --keys "C-c"'],
      ["Type a script from a file without running it", "spex terminal send 7c1e --text-file steps.sh --no-enter --json"],
    ],
  });

  selector = Option.String({ name: "ID" });
  text = Option.String({ name: "TEXT", required: false });
  textFile = Option.String("--text-file", { description: "Read the text from a file, or - for stdin" });
  keys = Option.String("--keys", { description: "tmux key names or plain words to send instead of text (e.g. \"C-c\")" });
  enter = Option.Boolean("--enter", true, { description: "Press Enter after the text (--no-enter leaves it on the command line)" });

  async execute(): Promise<number> {
    const store = currentProject();
    const text = (await textFrom(this.text, this.textFile, this.context.stdin, "text")) ?? "";
    const keys = this.keys ? this.keys.split(/\s+/).filter(Boolean) : [];
    const result = sendToTerminal(resolveTerminal(store, this.selector), { text, keys, enter: this.enter });
    if (this.json) writeJson(this.context.stdout, result);
    else {
      const what = result.sent === "keys" ? `keys ${result.keys.join(" ")}` : `${result.bytes} bytes${result.enter ? " and Enter" : ""}`;
      this.context.stdout.write(printable(`sent ${what} to terminal ${result.id.slice(0, 8)} (${result.name})`) + "\n");
    }
    return 0;
  }
}
