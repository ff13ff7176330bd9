import { Option } from "clipanion";
import * as t from "typanion";
import { SpexCommand } from "../../base";
import { printable } from "../../../lib/cli/output";
import { currentProject } from "../../../lib/store";
import { matchSelector, readAll } from "../../../lib/sessions";
import { type TimelineEvent, streamEvents } from "../../../lib/comms";

function describe(e: TimelineEvent & { session: string }): string {
  const who = e.session.slice(0, 8);
  switch (e.kind) {
    case "state":
      return `${e.at} ${who} ${e.prev} -> ${e.status}${e.proposal ? ` (proposes ${e.proposal})` : ""}${e.stopped ? " stopped" : ""}${e.archived ? " archived" : ""}`;
    case "message_in":
      return `${e.at} ${who} <- ${e.messageId}`;
    case "message_out":
      return `${e.at} ${who} -> ${e.messageId} to ${e.to.slice(0, 8)}`;
    case "merge":
      return `${e.at} ${who} merged ${e.branch} into ${e.into} (${e.landing})`;
  }
}

export class SessionWatchStreamCommand extends SpexCommand {
  static paths = [["session", "watch", "stream"]];
  static usage = SpexCommand.Usage({
    category: "Messages",
    description: "follow timeline events live (NDJSON with --json)",
    details: `
      Prints every new timeline event of the selected sessions (default: all, including sessions created later) as it is appended: one JSON object per line with \`--json\`, the event plus its \`session\` id. Runs until interrupted, \`--limit\` events were printed (exit 0), or the store is removed (exit 2).
    `,
    examples: [
      ["Everything, as NDJSON", "spex session watch stream --json"],
      ["Two sessions, from the start of their timelines", "spex session watch stream 3f2a 9c1e --replay"],
    ],
  });

  selectors = Option.Rest({ name: "SEL" });
  replay = Option.Boolean("--replay", false, { description: "Print each timeline from its start first" });
  limit = Option.String("--limit", { description: "Exit after this many events", validator: t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(1)]) });

  async execute(): Promise<number> {
    const store = currentProject();
    const readings = readAll(store);
    const targets = this.selectors.length > 0 ? [...new Set(this.selectors.map((s) => matchSelector(readings, s).id))] : undefined;
    const abort = new AbortController();
    const stop = () => abort.abort();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    const end = await streamEvents(store, {
      targets,
      replay: this.replay,
      limit: this.limit,
      signal: abort.signal,
      onEvent: (e) => this.context.stdout.write(this.json ? JSON.stringify(e) + "\n" : printable(describe(e)) + "\n"),
    });
    return end === "gone" ? 2 : 0;
  }
}
