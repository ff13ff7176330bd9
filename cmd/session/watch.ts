import { writeJson } from "../../lib/cli/output";
import { watchSession } from "../../lib/comms";
import { WatchRelationCommand } from "./watch/watcher";

export class SessionWatchCommand extends WatchRelationCommand {
  static paths = [["session", "watch"]];
  static usage = WatchRelationCommand.Usage({
    category: "Messages",
    description: "follow sessions: their state changes arrive as messages",
    details: `
      The watcher (your own session, or \`--watcher SEL\`) gets one message through the delivery queue each time a watched session ends a turn, asks, parks, fails, proposes, stops or is archived. A parent already follows the children it created; watching one of them too still yields one message per change. Relations live in the watched session's watchers.json with their sources (\`manual\`, \`parent\`).

      Without a session of your own, use \`spex session wait\` or \`spex session watch stream\` instead.
    `,
    examples: [
      ["Follow a session from inside another", "spex session watch auth-fixer"],
      ["Make one session follow two others", "spex session watch 3f2a 9c1e --watcher orchestrator"],
    ],
  });

  async execute(): Promise<number> {
    const rows = (await this.eachWatched(watchSession)).map(({ watched, watcher, result }) => ({ watched, watcher, sources: result.after }));
    if (this.json) writeJson(this.context.stdout, rows);
    else for (const r of rows) this.context.stdout.write(`${r.watcher.slice(0, 8)} watches ${r.watched.slice(0, 8)} (${r.sources.join(", ")})\n`);
    return 0;
  }
}
