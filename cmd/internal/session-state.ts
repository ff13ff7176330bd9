import { Option } from "clipanion";
import * as t from "typanion";
import { DeclareCommand } from "../session/declare";
import { LIFECYCLES } from "../../lib/record";
import { parseProposal } from "../../lib/sessions";

/** Hook-facing: the one write path agent lifecycle hooks call when a state really changes. */
export class InternalSessionStateCommand extends DeclareCommand {
  static paths = [["internal", "session-state"]];

  state = Option.String({ name: "state", validator: t.isEnum(LIFECYCLES) });
  propose = Option.String("--propose", { description: "merge, nothing or close" });
  newTurn = Option.Boolean("--new-turn", false, { description: "A new turn starts: clear the previous proposal and note" });
  ended = Option.Boolean("--stopped", false, { description: "The agent process ended" });

  async execute(): Promise<number> {
    const note = await this.readNote();
    const proposal = this.propose === undefined ? undefined : parseProposal(this.propose);
    return this.declare(async () => ({
      status: this.state,
      proposal,
      note,
      newTurn: this.newTurn,
      stopped: this.ended ? true : undefined,
    }));
  }
}
