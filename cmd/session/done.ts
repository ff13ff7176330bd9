import { Option } from "clipanion";
import * as t from "typanion";
import { DeclareCommand } from "./declare";
import { SpexError } from "../../lib/errors";
import { afterTurnRequest } from "./after-turn-request";

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
      ["Archive this session once the current turn ends", "spex session done --propose nothing --then archive"],
      ["Withdraw an after-turn request", "spex session done --cancel"],
    ],
  });

  propose = Option.String("--propose", {
    description: "merge, nothing or close (required unless --then or --cancel is given)",
    validator: t.isEnum(["merge", "nothing", "close"] as const),
  });

  then = Option.String("--then", {
    description: "archive or stop the session once the current turn ends (the Stop hook carries it out)",
    validator: t.isEnum(["archive", "stop"] as const),
  });

  cancel = Option.Boolean("--cancel", false, { description: "Withdraw a pending --then request" });

  async execute(): Promise<number> {
    if (this.then !== undefined || this.cancel) {
      return afterTurnRequest(this, { propose: this.propose, then: this.then, cancel: this.cancel }, () => this.readNote());
    }
    if (this.propose === undefined) {
      throw new SpexError("usage", "done needs --propose merge|nothing|close (or --then / --cancel)", { exitCode: 2, hint: "see `spex session done --help`" });
    }
    const propose = this.propose;
    const note = await this.readNote();
    return this.declare(async () => ({ status: "awaiting", proposal: propose, note, declared: "done" }));
  }
}
