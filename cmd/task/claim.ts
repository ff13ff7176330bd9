import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { actingSession, claimTask } from "../../lib/coord";

export class TaskClaimCommand extends SpexCommand {
  static paths = [["task", "claim"]];
  static usage = SpexCommand.Usage({
    category: "Coordination",
    description: "claim a task, or the oldest unblocked pending one",
    details: `
      A task another session holds is refused with \`task_held\` naming the holder, never stolen; a task whose dependencies are unfinished is refused with \`task_blocked\`. Of two sessions claiming at once, exactly one wins.
    `,
    examples: [
      ["Take the oldest task that can be started", "spex task claim"],
      ["Take a named task", "spex task claim t3"],
      ["For another session", "spex task claim t3 --session auth-fixer --json"],
    ],
  });

  id = Option.String({ name: "ID", required: false });
  session = Option.String("--session", { description: "The claiming session (default: SPEX_SESSION_ID, else the worktree you are in)" });

  async execute(): Promise<number> {
    const store = currentProject();
    const task = await claimTask(store, actingSession(store, this.session), this.id);
    if (this.json) writeJson(this.context.stdout, task);
    else this.context.stdout.write(`${task.changed ? "claimed" : "already yours:"} ${task.id}: ${task.title}\n`);
    return 0;
  }
}
