import { DeclareCommand } from "./declare";
import { SpexError } from "../../lib/errors";

export class SessionAskCommand extends DeclareCommand {
  static paths = [["session", "ask"]];
  static usage = DeclareCommand.Usage({
    category: "Agent declarations",
    description: "declare that the session is asking a human a question",
    examples: [
      ["Ask a question", 'spex session ask --note "Should the cache be per user or global?"'],
      ["A question from a file", "spex session ask --note-file question.md"],
    ],
  });

  async execute(): Promise<number> {
    const note = await this.readNote();
    if (note === undefined) throw new SpexError("usage", "ask needs the question as a note", { hint: 'add --note "…"', exitCode: 2 });
    return this.declare(async () => ({ status: "asking", note, declared: "ask" }));
  }
}
