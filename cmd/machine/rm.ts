import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { writeJson } from "../../lib/cli/output";
import { closeConnection, removeMachine } from "../../lib/machines";

export class MachineRmCommand extends SpexCommand {
  static paths = [["machine", "rm"], ["machine", "remove"]];
  static usage = SpexCommand.Usage({
    category: "Machines",
    description: "forget a machine (its sessions keep running there)",
    details: `
      Removes the machine from \`$SPEX_HOME/machines.json\` and ends spex's shared ssh connection to it. Nothing on that machine changes: its sessions keep running and stay reachable again once it is added back.
    `,
    examples: [
      ["Forget a machine", "spex machine rm box2"],
      ["As JSON: {removed}", "spex machine rm box2 --json"],
    ],
  });

  name = Option.String({ name: "NAME" });

  async execute(): Promise<number> {
    const gone = await removeMachine(this.name);
    await closeConnection(gone);
    if (this.json) writeJson(this.context.stdout, { removed: gone });
    else this.context.stdout.write(`removed ${gone.name} (${gone.destination})\n`);
    return 0;
  }
}
