import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { printableLine, writeJson } from "../../lib/cli/output";
import { textFrom } from "../../lib/cli/input";
import { currentProject } from "../../lib/store";
import { newTask, optionalActingSession } from "../../lib/coord";

export class TaskNewCommand extends SpexCommand {
  static paths = [["task", "new"]];
  static usage = SpexCommand.Usage({
    category: "Coordination",
    description: "add a task to the project's shared list",
    details: `
      Any session (or a person in the main checkout) can add tasks; any session can claim them. \`--depends-on\` names tasks that must be done before this one can be claimed; they must exist already.
    `,
    examples: [
      ["Add a task", 'spex task new "write the migration for the users table"'],
      ["With a body from a file, after two other tasks", 'spex task new "wire the endpoint" --body-file brief.md --depends-on t1,t2'],
      ["Body from stdin", 'cat brief.md | spex task new "port the parser" --body-file -'],
    ],
  });

  title = Option.String({ name: "TITLE" });
  body = Option.String("--body", { description: "The full instruction for whoever claims it" });
  bodyFile = Option.String("--body-file", { description: "Read the body from a file, or - for stdin" });
  dependsOn = Option.Array("--depends-on", { description: "Task ids (comma-separated or repeated) that must be done first" });
  session = Option.String("--session", { description: "Record this session as the creator (default: SPEX_SESSION_ID, else the worktree you are in, else none)" });

  async execute(): Promise<number> {
    const store = currentProject();
    const me = optionalActingSession(store, this.session);
    const body = (await textFrom(this.body, this.bodyFile, this.context.stdin, "body")) ?? "";
    const dependsOn = (this.dependsOn ?? []).flatMap((d) => d.split(",")).map((d) => d.trim()).filter(Boolean);
    const task = await newTask(store, me, { title: this.title, body, dependsOn });
    if (this.json) writeJson(this.context.stdout, task);
    else this.context.stdout.write(`${printableLine(`created ${task.id}: ${task.title}${task.blocked ? ` (blocked by ${task.blocked_by.join(", ")})` : ""}`)}\n`);
    return 0;
  }
}
