import { SpexCommand } from "./base";
import { formatTable, writeJson } from "../lib/cli/output";
import { currentProject } from "../lib/store";
import { runDoctor } from "../lib/doctor";

export class DoctorCommand extends SpexCommand {
  static paths = [["doctor"], ["session", "doctor"]];
  static usage = SpexCommand.Usage({
    category: "Machine",
    description: "check this machine and list leftovers (reported, never deleted)",
    details: `
      Checks git, tmux, each launcher's program, SPEX_HOME and the git hook; then lists orphans: worktrees under the worktree root with no record, tmux sessions of this project on the spex socket with no record (another project's sessions on a shared socket are not listed), retired and corrupt records, and creates that died before publishing. Exit 1 when a check fails.
    `,
    examples: [
      ["Check the machine", "spex doctor"],
      ["As JSON, for scripts", "spex doctor --json"],
    ],
  });

  async execute(): Promise<number> {
    const report = runDoctor(currentProject());
    if (this.json) {
      writeJson(this.context.stdout, report);
      return report.ok ? 0 : 1;
    }
    const out = this.context.stdout;
    out.write(formatTable(["CHECK", "OK", "DETAIL"], report.checks.map((c) => [c.name, c.ok ? "ok" : c.required ? "FAIL" : "missing", c.detail])));
    const o = report.orphans;
    const sections: [string, string[]][] = [
      ["worktrees without a record", o.worktrees],
      ["tmux sessions without a record", o.tmuxSessions],
      ["retired records (worktree gone; close them)", o.retiredRecords],
      ["corrupt records", o.corruptRecords],
      ["creates that died before publishing", o.abandonedCreates],
    ];
    for (const [title, items] of sections) if (items.length) out.write(`\n${title}:\n${items.map((i) => `  ${i}\n`).join("")}`);
    return report.ok ? 0 : 1;
  }
}
