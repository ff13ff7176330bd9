import { Option } from "clipanion";
import * as t from "typanion";
import { existsSync } from "node:fs";
import { SpexCommand } from "../base";
import { printable, writeJson } from "../../lib/cli/output";
import { currentProject, listSessionIds } from "../../lib/store";
import { resolveSelector } from "../../lib/sessions";
import { type DrainReport, drainNow, inboxMarker } from "../../lib/comms";

export class SessionDeliverCommand extends SpexCommand {
  static paths = [["session", "deliver"]];
  static usage = SpexCommand.Usage({
    category: "Messages",
    description: "hand over queued messages to sessions that are at rest",
    details: `
      Normally not needed: the target's next turn end (its Stop hook) and every later state change drain its queue. Without a selector, every session with queued messages is tried. A message whose earlier handover was interrupted is marked \`held\` here, never typed again.
    `,
    examples: [
      ["Drain every queue now", "spex session deliver"],
      ["One session, giving its screen up to 5 s to settle", "spex session deliver 3f2a --patience 5000"],
    ],
  });

  selectors = Option.Rest({ name: "SEL" });
  patience = Option.String("--patience", { description: "Milliseconds to keep retrying while the screen is not yet at rest (default 0)", validator: t.cascade(t.isNumber(), [t.isAtLeast(0)]) });
  quiet = Option.Boolean("--quiet", false, { description: "Print nothing (for detached runs)" });

  async execute(): Promise<number> {
    const store = currentProject();
    const ids = this.selectors.length > 0
      ? this.selectors.map((s) => resolveSelector(store, s).id)
      : listSessionIds(store).filter((id) => existsSync(inboxMarker(store, id)));
    const reports: DrainReport[] = [];
    for (const id of ids) reports.push(await drainNow(store, id, this.patience ?? 0));
    if (this.quiet) return 0;
    if (this.json) writeJson(this.context.stdout, reports);
    else if (reports.length === 0) this.context.stdout.write("nothing queued\n");
    else {
      for (const r of reports) {
        for (const o of r.outcomes) this.context.stdout.write(`${o.messageId}: ${o.state}${o.reason ? ` (${printable(o.reason)})` : ""}\n`);
        if (r.remaining > 0) this.context.stdout.write(`${r.target.slice(0, 8)}: ${r.remaining} still queued (${printable(r.blocked)})\n`);
      }
    }
    return 0;
  }
}
