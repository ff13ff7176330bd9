import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { printableLine, writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { optionalActor, removeTask } from "../../lib/coord";

export class TaskRmCommand extends SpexCommand {
  static paths = [["task", "rm"], ["task", "delete"]];
  static usage = SpexCommand.Usage({
    category: "Coordination",
    description: "delete a task",
    details: `
      Refused while other tasks depend on it (\`task_has_dependents\`) or another session holds it (\`task_held\`). \`--force\` deletes it anyway and drops it from its dependents' lists.
    `,
    examples: [
      ["Delete a task", "spex task rm t3"],
      ["Delete it although t4 depends on it", "spex task rm t3 --force"],
    ],
  });

  id = Option.String({ name: "ID" });
  force = Option.Boolean("--force", false, { description: "Delete even when other tasks depend on it or another session holds it" });
  session = Option.String("--session", { description: "The acting session (default: SPEX_SESSION_ID, else the worktree you are in, else none)" });
  as = Option.String("--as", { description: "Act as this person (default, outside any session: your user name)" });

  async execute(): Promise<number> {
    const store = currentProject();
    const task = await removeTask(store, optionalActor(store, { session: this.session, as: this.as }), this.id, this.force);
    if (this.json) writeJson(this.context.stdout, { deleted: task });
    else this.context.stdout.write(`${printableLine(`deleted ${task.id}: ${task.title}`)}\n`);
    return 0;
  }
}
