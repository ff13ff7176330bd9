import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { printableLine, writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { actingActor, claimTask, isPerson } from "../../lib/coord";

export class TaskClaimCommand extends SpexCommand {
  static paths = [["task", "claim"]];
  static usage = SpexCommand.Usage({
    category: "Coordination",
    description: "claim a task, or the oldest unblocked pending one",
    details: `
      A task another session (or person) holds is refused with \`task_held\` naming the holder, never stolen; a task whose dependencies are unfinished is refused with \`task_blocked\`. Of two claiming at once, exactly one wins.

      The claim is made for the session in play (\`--session\`, \`SPEX_SESSION_ID\`, the worktree you are in); outside any session a person claims as themselves, under their user name or \`--as NAME\`, shown \`NAME (person)\` in \`spex task ls\` and the snapshot. A person's claim stands until they finish or release it.
    `,
    examples: [
      ["Take the oldest task that can be started", "spex task claim"],
      ["Take a named task", "spex task claim t3"],
      ["For another session", "spex task claim t3 --session auth-fixer --json"],
      ["As a person, under another name than your user name", "spex task claim t3 --as alice"],
    ],
  });

  id = Option.String({ name: "ID", required: false });
  session = Option.String("--session", { description: "The claiming session (default: SPEX_SESSION_ID, else the worktree you are in)" });
  as = Option.String("--as", { description: "Act as this person (default, outside any session: your user name)" });

  async execute(): Promise<number> {
    const store = currentProject();
    const me = actingActor(store, { session: this.session, as: this.as });
    const task = await claimTask(store, me, this.id);
    if (this.json) writeJson(this.context.stdout, task);
    else this.context.stdout.write(`${printableLine(`${task.changed ? "claimed" : "already yours:"} ${task.id}${isPerson(me) ? ` as ${task.owner_label}` : ""}: ${task.title}`)}\n`);
    return 0;
  }
}
