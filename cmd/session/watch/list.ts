import { Option } from "clipanion";
import { SpexCommand } from "../../base";
import { formatTable, writeJson } from "../../../lib/cli/output";
import { currentProject } from "../../../lib/store";
import { matchSelector, readAll } from "../../../lib/sessions";
import { listWatchRelations } from "../../../lib/comms";

export class SessionWatchListCommand extends SpexCommand {
  static paths = [["session", "watch", "list"]];
  static usage = SpexCommand.Usage({
    category: "Messages",
    description: "list watch relations",
    details: `
      One row per (watched, watcher) pair with its sources: \`parent\` (from the session tree) and/or \`manual\` (from \`spex session watch\`). Selectors keep only relations on those watched sessions; \`--watcher\` keeps one watcher's.
    `,
    examples: [
      ["Every relation in this repository", "spex session watch list"],
      ["Who follows one session, as JSON", "spex session watch list auth-fixer --json"],
    ],
  });

  selectors = Option.Rest({ name: "SEL" });
  watcher = Option.String("--watcher", { description: "Only relations of this watching session" });

  async execute(): Promise<number> {
    const store = currentProject();
    const readings = readAll(store);
    const watched = new Set(this.selectors.map((s) => matchSelector(readings, s).id));
    const watcher = this.watcher ? matchSelector(readings, this.watcher).id : undefined;
    const rows = listWatchRelations(store).filter((r) => (watched.size === 0 || watched.has(r.watched)) && (!watcher || r.watcher === watcher));
    if (this.json) writeJson(this.context.stdout, rows);
    else if (rows.length === 0) this.context.stdout.write("no watch relations\n");
    else this.context.stdout.write(formatTable(["WATCHED", "WATCHER", "SOURCES", "SINCE"], rows.map((r) => [r.watched.slice(0, 8), r.watcher.slice(0, 8), r.sources.join(","), r.createdAt])));
    return 0;
  }
}
