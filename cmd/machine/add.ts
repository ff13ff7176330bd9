import { Option } from "clipanion";
import * as t from "typanion";
import { SpexCommand } from "../base";
import { printable, writeJson } from "../../lib/cli/output";
import { addMachine, describeState, machineStates } from "../../lib/machines";

export class MachineAddCommand extends SpexCommand {
  static paths = [["machine", "add"]];
  static usage = SpexCommand.Usage({
    category: "Machines",
    description: "add another machine, reached over OpenSSH, to run sessions on",
    details: `
      DESTINATION is what you would give \`ssh\`: a host, \`user@host\`, or a \`Host\` alias of your ssh config. spex runs \`ssh\` (or \`SPEX_SSH_COMMAND\`) non-interactively (BatchMode), so the machine must be reachable without a prompt: a key in your agent and the host key known. The list is kept in \`$SPEX_HOME/machines.json\`.

      \`--repo\` names the repository on that machine that session verbs act in when they are given no \`--repo\` of their own. After adding, the machine is probed once and its state printed; a machine that does not answer yet is still added.
    `,
    examples: [
      ["Add a build box", "spex machine add box2 me@box2.example.com"],
      ["Another port, with a default repository there", "spex machine add gpu1 gpu1.lan --port 2222 --repo /srv/src/app"],
    ],
  });

  name = Option.String({ name: "NAME" });
  destination = Option.String({ name: "DESTINATION" });
  port = Option.String("--port", { description: "The ssh port (default: ssh's own, or your ssh config's)", validator: t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(1), t.isAtMost(65535)]) });
  repo = Option.String("--repo", { description: "The repository on that machine session verbs use by default" });

  async execute(): Promise<number> {
    const machine = await addMachine({ name: this.name, destination: this.destination, port: this.port ?? null, repo: this.repo ?? "" });
    const [state] = await machineStates([machine]);
    if (this.json) {
      writeJson(this.context.stdout, state);
      return 0;
    }
    this.context.stdout.write(printable(`added ${machine.name} (${machine.destination}${machine.port !== null ? ` port ${machine.port}` : ""}): ${describeState(state!)}`) + "\n");
    if (!state!.reachable && state!.error) this.context.stderr.write(printable(`spex: warning: ${state!.error.message}; ${state!.error.hint}`) + "\n");
    return 0;
  }
}
