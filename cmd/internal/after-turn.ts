import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { runAfterTurn } from "../../lib/teardown";

/**
 * Carries out a session's after-turn request; spawned detached by the Stop
 * hook path. Hidden from help like every hook-facing command.
 */
export class InternalAfterTurnCommand extends SpexCommand {
  static paths = [["internal", "after-turn"]];

  id = Option.String({ name: "ID" });

  async execute(): Promise<number> {
    const store = currentProject();
    const outcome = await runAfterTurn(store, this.id, { detach: false });
    if (this.json) writeJson(this.context.stdout, { id: this.id, outcome });
    else this.context.stdout.write(`${this.id.slice(0, 8)}: ${outcome}\n`);
    return 0;
  }
}
