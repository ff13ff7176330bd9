import { SpexCommand } from "../base";
import { formatTable, writeJson } from "../../lib/cli/output";
import { machineStates, readMachines } from "../../lib/machines";

export class MachineLsCommand extends SpexCommand {
  static paths = [["machine", "ls"], ["machine", "list"]];
  static usage = SpexCommand.Usage({
    category: "Machines",
    description: "list the machines spex can run sessions on, each probed over ssh",
    details: `
      Every machine of \`$SPEX_HOME/machines.json\` is asked at once over ssh (one short script: uname, load average, cores, and the version of the spex there). A machine that does not answer is listed as unreachable with the ssh error; the others still answer. SPEX marks a spex of another build than this one; \`spex machine install NAME\` puts this one there.
    `,
    examples: [
      ["Which machines answer, and with which spex", "spex machine ls"],
      ["As JSON", "spex machine ls --json"],
    ],
  });

  async execute(): Promise<number> {
    const states = await machineStates(readMachines());
    if (this.json) {
      writeJson(this.context.stdout, states);
      return 0;
    }
    if (states.length === 0) {
      this.context.stdout.write("no machines (add one with `spex machine add NAME DESTINATION`)\n");
      return 0;
    }
    const rows = states.map((s) => {
      const f = s.facts;
      const spex = !f ? "" : f.spex ? `${f.spex.version}${s.current ? "" : "*"}` : "none";
      return [
        s.name,
        s.destination + (s.port !== null ? `:${s.port}` : ""),
        s.reachable ? "yes" : `no: ${s.error?.message ?? ""}`,
        spex,
        f ? `${f.os}/${f.arch}` : "",
        f && f.load1 !== null ? `${f.load1}${f.cpus ? `/${f.cpus}` : ""}` : "",
        s.repo,
      ];
    });
    this.context.stdout.write(formatTable(["NAME", "DESTINATION", "REACHABLE", "SPEX", "OS/ARCH", "LOAD", "REPO"], rows));
    if (states.some((s) => s.facts?.spex && !s.current)) this.context.stdout.write("* another build than this spex: `spex machine install NAME`\n");
    return 0;
  }
}
