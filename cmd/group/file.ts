import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { resolveSelector } from "../../lib/sessions";
import { fileSessions } from "../../lib/coord";

export class GroupFileCommand extends SpexCommand {
  static paths = [["group", "file"], ["group", "add-session"]];
  static usage = SpexCommand.Usage({
    category: "Groups",
    description: "file sessions into a group, or back into the root",
    details: `
      A session is in exactly one group; filing it moves it. \`""\` or \`/\` names the root. Every selector is resolved before anything changes, so one unknown session refuses the whole call.
    `,
    examples: [
      ["File two sessions into a group", "spex group file fleet/api auth-fixer 3f2a"],
      ["Move a session back to the root", "spex group file / auth-fixer"],
      ["As JSON: {group, filed: [{id, from}]}", "spex group file fleet 3f2a --json"],
    ],
  });

  group = Option.String({ name: "GROUP" });
  selectors = Option.Rest({ name: "SEL", required: 1 });

  async execute(): Promise<number> {
    const store = currentProject();
    const ids = this.selectors.map((s) => resolveSelector(store, s).id);
    const filing = await fileSessions(store, this.group, ids);
    if (this.json) {
      writeJson(this.context.stdout, filing);
      return 0;
    }
    const where = filing.group === "" ? "the root" : filing.group;
    this.context.stdout.write(filing.filed.map((f) => `filed ${f.id.slice(0, 8)} in ${where}\n`).join(""));
    return 0;
  }
}
