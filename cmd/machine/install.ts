import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { writeJson } from "../../lib/cli/output";
import { installOn, readMachines, requireMachine } from "../../lib/machines";

export class MachineInstallCommand extends SpexCommand {
  static paths = [["machine", "install"]];
  static usage = SpexCommand.Usage({
    category: "Machines",
    description: "copy this spex binary to a machine's ~/.local/bin/spex",
    details: `
      Probes the machine first: a machine whose OS or architecture differs from this binary's is refused (\`machine_platform_mismatch\`) and nothing is copied. When the spex there is this very build (same version, commit and build time), nothing is copied either; otherwise the binary is streamed over the machine's shared ssh connection into a temporary file beside \`~/.local/bin/spex\` and renamed over it (a spex running there keeps its old file), with \`sessions\` linked beside it. spex finds \`~/.local/bin/spex\` on the remote even when it is not on that shell's PATH.
    `,
    examples: [
      ["Install or update spex on a machine", "spex machine install box2"],
      ["Copy even when the same build is there", "spex machine install box2 --force"],
    ],
  });

  name = Option.String({ name: "NAME" });
  force = Option.Boolean("--force", false, { description: "Copy even when the same build is already there" });

  async execute(): Promise<number> {
    const machine = requireMachine(this.name, readMachines());
    const result = await installOn(machine, { force: this.force });
    if (this.json) writeJson(this.context.stdout, result);
    else if (result.outcome === "current") this.context.stdout.write(`${machine.name}: spex ${result.after?.version} (${result.after?.commit}) is already at ${result.path}\n`);
    else this.context.stdout.write(`${machine.name}: installed spex ${result.after?.version} (${result.after?.commit}) at ${result.path}, ${(result.bytes / 1048576).toFixed(1)} MiB\n`);
    return 0;
  }
}
