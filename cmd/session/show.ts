import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { printable, trimScreen, writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { detailOf, resolveSelector } from "../../lib/sessions";
import { readSession } from "../../lib/record";
import { settleFence } from "../../lib/launch/settle";

export class SessionShowCommand extends SpexCommand {
  static paths = [["session", "show"]];
  static usage = SpexCommand.Usage({
    category: "Sessions",
    description: "show one session: the full record, the full prompt and its last screen",
    details: `
      SEL is a full id, a unique id prefix, a name, a node, a branch, or \`.\` for the session whose worktree you are in.
    `,
    examples: [
      ["Show a session by id prefix", "spex session show 3f2a"],
      ["The session of the current worktree, as JSON", "spex session show . --json"],
    ],
  });

  selector = Option.String({ name: "SEL" });

  async execute(): Promise<number> {
    const store = currentProject();
    let reading = resolveSelector(store, this.selector);
    // A launch whose launcher died shows as what it became, not as starting for good.
    if (reading.kind === "ok" && reading.pending && (await settleFence(store, reading.id))) reading = readSession(store, reading.id) as typeof reading;
    const detail = detailOf(store, reading)!;
    if (this.json) {
      writeJson(this.context.stdout, { ...detail.row, note: detail.note, prompt: detail.prompt, record: detail.record, lastScreen: detail.lastScreen });
      return 0;
    }
    const out = this.context.stdout;
    const row = detail.row;
    if (row.kind === "corrupt") {
      out.write(`session ${row.id}\nstatus   ${row.display}\nfile     ${row.file}\nerror    ${printable(row.error)}\n`);
      return 0;
    }
    const lines: [string, string][] = [
      ["session", row.id],
      ["label", row.label],
      ["status", `${row.display} (lifecycle ${row.lifecycle}, ${row.liveness})`],
      ["stopped", row.stopped ? `yes: the agent was stopped; \`spex session resume ${row.shortId}\` relaunches it` : ""],
      ["archived", row.archived ? "yes: hidden from `spex session ls` unless --all" : ""],
      ["branch", row.branch],
      ["worktree", row.worktree],
      ["base", row.base ?? "(default branch)"],
      ["node", row.node],
      ["parent", row.parent],
      ["harness", `${row.harness}${row.launcher ? ` via launcher ${row.launcher}` : ""}`],
      ["proposal", row.proposal],
      ["note", detail.note],
      ["created", row.createdAt],
      ["updated", row.updatedAt],
    ];
    for (const [k, v] of lines) if (v) out.write(`${k.padEnd(9)}${printable(v)}\n`);
    out.write(`\nprompt:\n${printable(detail.prompt)}\n`);
    const screen = detail.lastScreen ? trimScreen(detail.lastScreen) : "";
    if (screen) out.write(`\nlast screen:\n${printable(screen)}\n`);
    return 0;
  }
}
