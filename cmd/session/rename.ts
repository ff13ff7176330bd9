import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { RemotableCommand } from "../remotable";
import type { RemoteSpec } from "../../lib/machines";
import { printableLine, writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { renameSession, resolveSelector } from "../../lib/sessions";
import { labelOf } from "../../lib/naming";

export class SessionRenameCommand extends RemotableCommand {
  static paths = [["session", "rename"]];
  static remote: RemoteSpec = { selectors: "selector" };
  static usage = SpexCommand.Usage({
    category: "Sessions",
    description: "set or clear a session's display name",
    details: `
      The name is only what people see: the branch, worktree, node and title keep their own derivation. An empty name clears it.
    `,
    examples: [
      ["Name a session", "spex session rename 3f2a auth-fixer"],
      ["Clear the name", 'spex session rename auth-fixer ""'],
    ],
  });

  selector = Option.String({ name: "SEL" });
  name = Option.String({ name: "NAME" });

  async execute(): Promise<number> {
    const store = currentProject();
    const reading = resolveSelector(store, this.selector);
    const change = await renameSession(store, reading.id, this.name);
    const record = change?.after ?? (reading.kind === "ok" ? reading.record : undefined);
    if (this.json) writeJson(this.context.stdout, { id: reading.id, name: this.name, label: record ? labelOf(record) : "" });
    else this.context.stdout.write(this.name ? `${printableLine(`renamed ${reading.id.slice(0, 8)} to ${this.name}`)}\n` : `cleared the name of ${reading.id.slice(0, 8)}\n`);
    return 0;
  }
}
