import { SpexCommand } from "../base";
import { formatTable, writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { listGroups } from "../../lib/coord";

export class GroupLsCommand extends SpexCommand {
  static paths = [["group", "ls"], ["group", "list"]];
  static usage = SpexCommand.Usage({
    category: "Groups",
    description: "list the session groups of this repository",
    details: `
      One row per group in tree order, a parent before its children: the path, the effective default directory (its own, else the nearest ancestor's; \`.\` is the main checkout) and the number of sessions filed directly in it. Sessions in no group are in the root and are not counted here.
    `,
    examples: [
      ["List the groups", "spex group ls"],
      ["As JSON", "spex group ls --json"],
    ],
  });

  async execute(): Promise<number> {
    const groups = listGroups(currentProject());
    if (this.json) {
      writeJson(this.context.stdout, groups);
      return 0;
    }
    if (groups.length === 0) {
      this.context.stdout.write("no groups\n");
      return 0;
    }
    this.context.stdout.write(
      formatTable(
        ["PATH", "DIR", "SESSIONS"],
        groups.map((g) => ["  ".repeat(g.depth) + g.path, g.effectiveDirectory || ".", String(g.sessions)]),
      ),
    );
    return 0;
  }
}
