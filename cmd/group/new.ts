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
      A group path is slash-separated segments of letters, digits, \`-\`, \`_\` and \`.\`; a nested group's parent must exist first, unless \`-p\` (\`--parents\`) makes the missing ones as \`mkdir -p\` does (with no directory of their own); with \`-p\` a group that already exists is no error. \`--dir\` is relative to the main checkout and must stay inside the repository; a nested group that sets none inherits its parent's.

      Refusals: \`group_exists\`, \`group_parent_missing\`, \`group_path_invalid\`, \`group_directory_outside\`.
    `,
    examples: [
      ["A top-level group", "spex group new fleet"],
      ["A nested group working under services/api", "spex group new fleet/api --dir services/api"],
      ["The same, as JSON", "spex group new fleet/web --json"],
      ["A nested group and its missing parents", "spex group new -p teams/platform/api"],
    ],
  });

  groupPath = Option.String({ name: "PATH" });
  dir = Option.String("--dir", { description: "The group's default directory, relative to the main checkout" });
  parents = Option.Boolean("-p,--parents", false, { description: "Make missing parent groups too; an existing group is no error" });

  async execute(): Promise<number> {
    const group = await createGroup(currentProject(), this.groupPath, this.dir ?? "", { parents: this.parents });
    if (this.json) writeJson(this.context.stdout, group);
    else if (group.created.length === 0) this.context.stdout.write(`group ${group.path} already exists\n`);
    else this.context.stdout.write(`created group${group.created.length > 1 ? "s" : ""} ${group.created.join(", ")}${group.effectiveDirectory ? ` (directory of ${group.path}: ${group.effectiveDirectory})` : ""}\n`);
    return 0;
  }
}
