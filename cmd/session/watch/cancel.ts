import { writeJson } from "../../../lib/cli/output";
import { cancelWatch } from "../../../lib/comms";
import { WatchRelationCommand } from "./watcher";

export class SessionWatchCancelCommand extends WatchRelationCommand {
  static paths = [["session", "watch", "cancel"]];
  static usage = WatchRelationCommand.Usage({
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

  async execute(): Promise<number> {
    const rows = (await this.eachWatched(cancelWatch)).map(({ watched, watcher, result }) => ({
      watched,
      watcher,
      before: result.before,
      sources: result.after,
      droppedNotices: result.droppedNotices,
    }));
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
