import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { RemotableCommand } from "../remotable";
import type { RemoteSpec } from "../../lib/machines";
import { writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { resolveSelector } from "../../lib/sessions";
import { interruptSession } from "../../lib/teardown";

export class SessionInterruptCommand extends RemotableCommand {
  static paths = [["session", "interrupt"]];
  static remote: RemoteSpec = { selectors: "selector" };
  static usage = SpexCommand.Usage({
    category: "Lifecycle",
    description: "interrupt the agent's current turn; the session keeps running",
    details: `
      Sends the harness's interrupt keys to the session's pane (Escape for Claude Code, C-c for a shell command); no process is signalled. No agent CLI reports a turn ended by its interrupt key, so a session that was working (lifecycle \`active\`) or \`asking\` is declared \`idle\` right after, which lets queued messages reach it; any other lifecycle is left as it was.
    `,
    examples: [
      ["Interrupt a session", "spex session interrupt 3f2a"],
      ["Interrupt by name, as JSON", "spex session interrupt auth-fixer --json"],
    ],
  });

  selector = Option.String({ name: "SEL" });

  async execute(): Promise<number> {
    const store = currentProject();
    const { id } = resolveSelector(store, this.selector);
    const result = await interruptSession(store, id);
    if (this.json) writeJson(this.context.stdout, result);
    else this.context.stdout.write(`interrupted ${id.slice(0, 8)}: sent ${result.keys.join(" ")}\n`);
    return 0;
  }
}
