import { Option } from "clipanion";
import { SpexCommand } from "../../base";
import { writeJson } from "../../../lib/cli/output";
import { currentProject } from "../../../lib/store";
import { matchSelector, readAll } from "../../../lib/sessions";
import { cancelWatch } from "../../../lib/comms";
import { resolveWatcher } from "./watcher";

export class SessionWatchCancelCommand extends SpexCommand {
  static paths = [["session", "watch", "cancel"]];
  static usage = SpexCommand.Usage({
    category: "Messages",
    description: "stop watching sessions (a parent keeps following its children)",
    details: `
      Removes only the \`manual\` source. A parent still hears about its children; \`spex session reparent --detach\` ends that.
    `,
    examples: [
      ["Stop watching a session", "spex session watch cancel auth-fixer"],
      ["For another watcher", "spex session watch cancel 3f2a --watcher orchestrator"],
    ],
  });

  selectors = Option.Rest({ name: "SEL", required: 1 });
  watcher = Option.String("--watcher", { description: "The watching session (default: SPEX_SESSION_ID)" });

  async execute(): Promise<number> {
    const store = currentProject();
    const readings = readAll(store);
    const watcher = resolveWatcher(store, this.watcher);
    const rows = [];
    for (const s of this.selectors) {
      const watched = matchSelector(readings, s).id;
      const change = await cancelWatch(store, watched, watcher);
      rows.push({ watched, watcher, before: change.before, sources: change.after, droppedNotices: change.droppedNotices });
    }
    if (this.json) writeJson(this.context.stdout, rows);
    else {
      for (const r of rows) {
        const left = r.sources.length > 0 ? `still follows it (${r.sources.join(", ")})` : "no longer follows it";
        this.context.stdout.write(`${r.watcher.slice(0, 8)} ${r.before.includes("manual") ? "" : "was not manually watching; "}${left}: ${r.watched.slice(0, 8)}\n`);
      }
    }
    return 0;
  }
}
