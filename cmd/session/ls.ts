import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { formatTable, writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { type ListRow, matchSelector, readAll } from "../../lib/sessions";
import { DISPLAY_STATUSES } from "../../lib/record";
import { SpexError } from "../../lib/errors";
import { recoverAbandonedCreates } from "../../lib/create/receipt";
import { listRowsSettled } from "../../lib/launch/stale";

export class SessionLsCommand extends SpexCommand {
  static paths = [["session", "ls"], ["session", "list"]];
  static usage = SpexCommand.Usage({
    category: "Sessions",
    description: "list the sessions of this repository",
    details: `
      One row per session: its short id, display status, label, branch and a one-line preview of its prompt. Archived sessions are hidden unless \`--all\` is given. A record that cannot be parsed keeps its row, shown as \`corrupt\` with the file and the parse error.

      \`--status\` filters on the display status (starting, working, idle, asking, parked, error, queued, review, done, close-pending, offline, corrupt, retired) or the recorded lifecycle.
    `,
    examples: [
      ["List the sessions of this repository", "spex session ls"],
      ["Only those waiting for review or asking a question, as JSON", "spex session ls --status review,asking --json"],
      ["Every session including archived ones", "spex session ls --all"],
    ],
  });

  selectors = Option.Rest({ name: "selector" });
  status = Option.String("--status", { description: "Comma-separated display statuses or lifecycles to keep" });
  all = Option.Boolean("--all", false, { description: "Include archived sessions" });

  async execute(): Promise<number> {
    const store = currentProject();
    // The next spex command after a create killed mid-way rolls it back.
    await recoverAbandonedCreates(store);
    // A launch that died waiting for readiness shows its original again.
    let rows: ListRow[] = await listRowsSettled(store);
    if (this.selectors.length > 0) {
      const readings = readAll(store);
      const wanted = new Set(this.selectors.map((s) => matchSelector(readings, s).id));
      rows = rows.filter((r) => wanted.has(r.id));
    } else if (!this.all) {
      rows = rows.filter((r) => r.kind === "corrupt" || !r.archived);
    }
    if (this.status !== undefined) {
      const wanted = this.status.split(",").map((s) => s.trim()).filter(Boolean);
      const known = new Set<string>([...DISPLAY_STATUSES, "active", "awaiting"]);
      const unknown = wanted.filter((w) => !known.has(w));
      if (unknown.length > 0) {
        throw new SpexError("usage", `unknown status ${unknown.join(", ")}`, {
          hint: `use any of ${[...known].join(", ")}`,
          exitCode: 2,
        });
      }
      rows = rows.filter((r) => wanted.includes(r.display) || (r.kind === "ok" && wanted.includes(r.lifecycle)));
    }
    if (this.json) {
      writeJson(this.context.stdout, rows);
      return 0;
    }
    if (rows.length === 0) {
      this.context.stdout.write("no sessions\n");
      return 0;
    }
    this.context.stdout.write(
      formatTable(
        ["ID", "STATUS", "LABEL", "BRANCH", "PROMPT"],
        rows.map((r) =>
          r.kind === "corrupt"
            ? [r.shortId, "corrupt", r.file, "", r.error]
            : [r.shortId, r.display, r.label, r.branch, r.preview],
        ),
      ),
    );
    return 0;
  }
}
