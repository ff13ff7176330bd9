import { DeclareCommand } from "./declare";
import { SpexError } from "../../lib/errors";

export class SessionParkCommand extends DeclareCommand {
  static paths = [["session", "park"]];
  static usage = DeclareCommand.Usage({
    category: "Agent declarations",
    description: "declare the session parked: blocked or waiting on something outside it",
    examples: [
      ["Park with a reason", 'spex session park --note "waiting for the API key"'],
      ["Park another session", 'spex session park --session 3f2a --note "superseded"'],
    ],
  });

  async execute(): Promise<number> {
    const note = await this.readNote();
    if (note === undefined) throw new SpexError("usage", "park needs a note saying why", { hint: 'add --note "…"', exitCode: 2 });
    return this.declare(async () => ({ status: "parked", note, declared: "park" }));
  }
}
