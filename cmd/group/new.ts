import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { createGroup } from "../../lib/coord";

export class GroupNewCommand extends SpexCommand {
  static paths = [["group", "new"], ["group", "create"]];
  static usage = SpexCommand.Usage({
    category: "Groups",
    description: "make a session group, optionally with a default directory",
    details: `
      A group path is slash-separated segments of letters, digits, \`-\`, \`_\` and \`.\`; a nested group's parent must exist first. \`--dir\` is relative to the main checkout and must stay inside the repository; a nested group that sets none inherits its parent's.

      Refusals: \`group_exists\`, \`group_parent_missing\`, \`group_path_invalid\`, \`group_directory_outside\`.
    `,
    examples: [
      ["A top-level group", "spex group new fleet"],
      ["A nested group working under services/api", "spex group new fleet/api --dir services/api"],
      ["The same, as JSON", "spex group new fleet/web --json"],
    ],
  });

  groupPath = Option.String({ name: "PATH" });
  dir = Option.String("--dir", { description: "The group's default directory, relative to the main checkout" });

  async execute(): Promise<number> {
    const group = await createGroup(currentProject(), this.groupPath, this.dir ?? "");
    if (this.json) writeJson(this.context.stdout, group);
    else this.context.stdout.write(`created group ${group.path}${group.effectiveDirectory ? ` (directory ${group.effectiveDirectory})` : ""}\n`);
    return 0;
  }
}
