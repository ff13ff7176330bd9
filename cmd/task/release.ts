import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { printableLine, writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { actingActor, releaseTask } from "../../lib/coord";

export class TaskReleaseCommand extends SpexCommand {
  static paths = [["task", "release"]];
  static usage = SpexCommand.Usage({
    category: "Coordination",
    description: "give a task you hold back to the list",
    details: `
      Only the holder can release a task; it goes back to pending for any session to claim.
    `,
    examples: [
      ["Release a task", "spex task release t3"],
      ["As JSON", "spex task release t3 --json"],
    ],
  });

  id = Option.String({ name: "ID" });
  session = Option.String("--session", { description: "The holding session (default: SPEX_SESSION_ID, else the worktree you are in)" });
  as = Option.String("--as", { description: "Act as this person (default, outside any session: your user name)" });

  async execute(): Promise<number> {
    const store = currentProject();
    const task = await releaseTask(store, actingActor(store, { session: this.session, as: this.as }), this.id);
    if (this.json) writeJson(this.context.stdout, task);
    else this.context.stdout.write(`${printableLine(`released ${task.id}: ${task.title}`)}\n`);
    return 0;
  }
}
