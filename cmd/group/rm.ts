import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { deleteGroup } from "../../lib/coord";

export class GroupRmCommand extends SpexCommand {
  static paths = [["group", "rm"], ["group", "delete"]];
  static usage = SpexCommand.Usage({
    category: "Groups",
    description: "remove a group and the groups nested under it",
    details: `
      Sessions filed in the removed groups move to the root; nothing else happens to them (they keep running). The answer names every removed group and every moved session.
    `,
    examples: [
      ["Remove a group and its nested groups", "spex group rm fleet"],
      ["As JSON: {removedGroups, movedSessions}", "spex group rm fleet/api --json"],
    ],
  });

  groupPath = Option.String({ name: "GROUP" });

  async execute(): Promise<number> {
    const removal = await deleteGroup(currentProject(), this.groupPath);
    if (this.json) {
      writeJson(this.context.stdout, removal);
      return 0;
    }
    const moved = removal.movedSessions.length;
    this.context.stdout.write(
      `removed ${removal.removedGroups.join(", ")}` + (moved > 0 ? `; ${moved} session${moved === 1 ? "" : "s"} moved to the root` : "") + "\n",
    );
    return 0;
  }
}
