import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { writeJson } from "../../lib/cli/output";
import { SpexError } from "../../lib/errors";
import { currentProject } from "../../lib/store";
import { matchSelector, readAll } from "../../lib/sessions";
import { reparentSession } from "../../lib/comms";

export class SessionReparentCommand extends SpexCommand {
  static paths = [["session", "reparent"]];
  static usage = SpexCommand.Usage({
    category: "Messages",
    description: "move sessions under another parent, or make them top-level",
    details: `
      Changes the child's parent and only the \`parent\` source of its watchers (a manual watch stays), then sends the new parent the child's current state. \`--detach\` removes the relation and any notice still waiting for the old parent, notifying nobody. A move that would make a cycle is refused (\`reparent_cycle\`).
    `,
    examples: [
      ["Hand two children to another orchestrator", "spex session reparent 3f2a 9c1e --to orchestrator"],
      ["Make a child top-level", "spex session reparent 3f2a --detach"],
    ],
  });

  selectors = Option.Rest({ name: "SEL", required: 1 });
  to = Option.String("--to", { description: "The new parent" });
  detach = Option.Boolean("--detach", false, { description: "Remove the parent: the sessions become top-level" });

  async execute(): Promise<number> {
    if ((this.to === undefined) === !this.detach) {
      throw new SpexError("usage", "give exactly one of --to SEL or --detach", { exitCode: 2 });
    }
    const store = currentProject();
    const readings = readAll(store);
    const parent = this.to === undefined ? null : matchSelector(readings, this.to).id;
    const results = [];
    for (const s of this.selectors) results.push(await reparentSession(store, matchSelector(readings, s).id, parent));
    if (this.json) writeJson(this.context.stdout, results);
    else {
      for (const r of results) {
        const what = r.to ? `now under ${r.to.slice(0, 8)}${r.notified ? " (parent notified)" : ""}` : "now top-level";
        this.context.stdout.write(`${r.id.slice(0, 8)}: ${r.changed ? what : `unchanged (${what})`}\n`);
      }
    }
    return 0;
  }
}
