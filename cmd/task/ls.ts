import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { formatTable, writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { listTasks, optionalActor } from "../../lib/coord";

export class TaskLsCommand extends SpexCommand {
  static paths = [["task", "ls"], ["task", "list"]];
  static usage = SpexCommand.Usage({
    category: "Coordination",
    description: "list the project's shared tasks",
    details: `
      One row per task in creation order. A claim by a session whose record is gone no longer counts: its task reads as pending again. A person's claim shows as \`NAME (person)\`; \`(you)\` marks what the session in play holds, or outside any session what you (your user name, or \`--as NAME\`) hold.
    `,
    examples: [
      ["The list", "spex task ls"],
      ["As JSON, with bodies and the derived blocked_by", "spex task ls --json"],
    ],
  });

  session = Option.String("--session", { description: "Mark the tasks this session holds as mine (default: SPEX_SESSION_ID, else the worktree you are in)" });
  as = Option.String("--as", { description: "Mark what this person holds as yours (default, outside any session: your user name)" });

  async execute(): Promise<number> {
    const store = currentProject();
    const tasks = listTasks(store, optionalActor(store, { session: this.session, as: this.as }));
    if (this.json) {
      writeJson(this.context.stdout, tasks);
      return 0;
    }
    if (tasks.length === 0) {
      this.context.stdout.write("no tasks\n");
      return 0;
    }
    const rows = tasks.map((t) => [t.id, t.state, t.owner ? `${t.owner_label}${t.mine ? " (you)" : ""}` : "", t.blocked_by.join(","), t.title]);
    this.context.stdout.write(formatTable(["ID", "STATE", "OWNER", "BLOCKED BY", "TITLE"], rows));
    return 0;
  }
}
