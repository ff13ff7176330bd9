import { SpexCommand } from "./base";
import { formatTable, reportWarning, writeJson } from "../lib/cli/output";
import { currentProject } from "../lib/store";
import { recoverAbandonedCreates } from "../lib/create/receipt";
import { buildSnapshot } from "../lib/snapshot";

export class SnapshotCommand extends SpexCommand {
  static paths = [["snapshot"]];
  static usage = SpexCommand.Usage({
    category: "Coordination",
    description: "everything an orchestrator reads, in one versioned document",
    details: `
      With \`--json\`: one object, \`"schemaVersion": "spex.snapshot.v1"\`, holding every session row (as \`spex session ls --json --all\`), the groups, tasks, reservations and terminals, the messages not yet handed over with their states, and the machine it was taken on. A groups, tasks or reservations file that cannot be parsed leaves its part empty and is named under \`corrupt\` (the rest is answered, exit 0). docs/snapshot.md describes it field by field; \`GET /api/snapshot\` answers the same document. Without \`--json\`, a count of each.
    `,
    examples: [
      ["The whole document", "spex snapshot --json"],
      ["The sessions still working, with jq", "spex snapshot --json | jq '.sessions[] | select(.display == \"working\") | .label'"],
    ],
  });

  async execute(): Promise<number> {
    const store = currentProject();
    // As `ls` does: a create killed mid-way is rolled back before anything is listed.
    const { stuck } = await recoverAbandonedCreates(store);
    for (const warning of stuck) reportWarning(warning, this.context.stderr);
    const snap = await buildSnapshot(store);
    if (this.json) {
      writeJson(this.context.stdout, snap);
      return 0;
    }
    const broken = new Map(snap.corrupt.map((c) => [c.part as string, c]));
    const count = (items: unknown[], what: string) => [what, broken.has(what) ? "corrupt" : String(items.length)];
    const rows = [
      count(snap.sessions, "sessions"),
      count(snap.groups, "groups"),
      count(snap.tasks, "tasks"),
      count(snap.reservations, "reservations"),
      count(snap.terminals, "terminals"),
      count(snap.messages, "messages waiting"),
    ];
    this.context.stdout.write(`${snap.schemaVersion} of ${snap.project.root} on ${snap.machine.name}, ${snap.generatedAt}\n`);
    this.context.stdout.write(formatTable(["WHAT", "COUNT"], rows, { notes: rows.map(([what]) => (broken.has(what!) ? `${broken.get(what!)!.file}: ${broken.get(what!)!.error}` : undefined)) }));
    this.context.stdout.write("`spex snapshot --json` prints the document\n");
    return 0;
  }
}
