import { Option } from "clipanion";
import * as t from "typanion";
import { DeclareCommand } from "./declare";

export class SessionDoneCommand extends DeclareCommand {
  static paths = [["session", "done"]];
  static usage = DeclareCommand.Usage({
    category: "Agent declarations",
    description: "declare the work finished and propose what happens next",
    details: `
      Run by the agent (or for it) when its task is settled. \`merge\` asks for review and landing, \`nothing\` says there is nothing to land, \`close\` says the worktree is no longer needed. The session shows as review, done or close-pending until a new turn starts.
    `,
    examples: [
      ["Ask for the branch to be reviewed and merged", 'spex session done --propose merge --note "tests pass"'],
      ["Nothing to land", "spex session done --propose nothing"],
      ["A note with any bytes, from stdin", "printf 'line 1\\nline 2' | spex session done --propose close --note-file -"],
    ],
  });

  propose = Option.String("--propose", {
    required: true,
    description: "merge, nothing or close",
    validator: t.isEnum(["merge", "nothing", "close"] as const),
  });

  async execute(): Promise<number> {
    const note = await this.readNote();
    return this.declare(async () => ({ status: "awaiting", proposal: this.propose, note }));
  }
}
