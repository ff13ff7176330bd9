import { Option } from "clipanion";
import * as t from "typanion";
import { SpexCommand } from "../../base";
import { printable } from "../../../lib/cli/output";
import { currentProject } from "../../../lib/store";
import { matchSelector, readAll } from "../../../lib/sessions";
import { describeStreamEvent, streamEvents, streamLabeler } from "../../../lib/comms";

export class SessionWatchStreamCommand extends SpexCommand {
  static paths = [["session", "watch", "stream"]];
  static usage = SpexCommand.Usage({
    category: "Messages",
    description: "follow timeline events live (NDJSON with --json)",
    details: `
      Prints every new timeline event of the selected sessions (default: all, including sessions created later) as it is appended, naming each session by its label and short id (a message by its sender too): one JSON object per line with \`--json\`, the event plus its \`session\` id and \`label\`. Runs until interrupted, \`--limit\` events were printed (exit 0), or the store is removed (exit 2).
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
    const label = streamLabeler(store);
    const end = await streamEvents(store, {
      targets,
      replay: this.replay,
      limit: this.limit,
      signal: abort.signal,
      onEvent: (e) => this.context.stdout.write(this.json ? JSON.stringify(e) + "\n" : printable(describeStreamEvent(e, label)) + "\n"),
    });
    return end === "gone" ? 2 : 0;
  }
}
