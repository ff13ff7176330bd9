import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { printableLine, writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { actingActor, finishTask } from "../../lib/coord";

export class TaskFinishCommand extends SpexCommand {
  static paths = [["task", "finish"]];
  static usage = SpexCommand.Usage({
    category: "Coordination",
    description: "mark a task you hold as done",
    details: `
      Only the holder can finish a task: the session in play, or outside any session the person who claimed it (their user name, or \`--as NAME\`). Tasks that depend on it become claimable once all their dependencies are done.
    `,
    examples: [
      ["Finish a task", "spex task finish t3"],
      ["As JSON", "spex task finish t3 --json"],
    ],
  });

  id = Option.String({ name: "ID" });
  session = Option.String("--session", { description: "The holding session (default: SPEX_SESSION_ID, else the worktree you are in)" });
  as = Option.String("--as", { description: "Act as this person (default, outside any session: your user name)" });

  async execute(): Promise<number> {
    const store = currentProject();
    const task = await finishTask(store, actingActor(store, { session: this.session, as: this.as }), this.id);
    if (this.json) writeJson(this.context.stdout, task);
    else this.context.stdout.write(`${printableLine(`${task.changed ? "finished" : "already done:"} ${task.id}: ${task.title}`)}\n`);
    return 0;
  }
}
