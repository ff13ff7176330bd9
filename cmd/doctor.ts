import { SpexCommand } from "./base";
import { formatTable, printableLine, writeJson } from "../lib/cli/output";
import { isSpexError } from "../lib/errors";
import { type ProjectStore, currentProject, spexHome } from "../lib/store";
import { runDoctor } from "../lib/doctor";

/** The project of the current folder, or undefined outside any repository (doctor then checks the machine only). */
function projectHere(): ProjectStore | undefined {
  try {
    return currentProject();
  } catch (e) {
    if (isSpexError(e) && e.code === "not_a_git_repo") return undefined;
    throw e;
  }
}

/**
 * Text on its one line of the listing: a folder named with a newline and
 * `    remove: rm -rf ~` must not print as advice of its own, so line breaks
 * and tabs show as `\x0a`, `\x09` like every other control character. The
 * commands stay pasteable: their words hold no control character (shellWord).
 */
function shown(text: string): string {
  return printableLine(text);
}

export class DoctorCommand extends SpexCommand {
  static paths = [["doctor"], ["session", "doctor"]];
  static usage = SpexCommand.Usage({
    category: "Backend and checks",
    description: "check this machine and list leftovers with the command that removes or shows each (nothing is deleted)",
    details: `
      Checks git, tmux, SPEX_HOME and each launcher's program; inside a repository also the project's launchers and git hook, then lists orphans. Each comes with the command that removes it only where spex can prove nothing of anyone's work goes with it (an empty folder; a registered worktree with no change, ignored files included, whose commit is on the main branch); anything else (a folder holding a registered worktree, uncommitted or unmerged work, files git does not know, what a corrupt record or a running create may own) comes with a command that shows it and why to look first (\`inspect\`; in \`--json\` each \`cleanup\` entry has \`action\` remove or inspect and a \`reason\`). Orphans: worktrees under the worktree root with no record, tmux sessions of this project on the spex socket with no record (another project's sessions on a shared socket are not listed), retired and corrupt records, creates that died before publishing, and the hidden \`.closed-…\` leftovers of closes killed part way (finished by \`spex session close\` / \`spex terminal close\` of that id). Outside a repository only the machine is checked (the built-in launchers). Without tmux the tmux check fails and nothing else asks tmux. Exit 1 when a required check fails.
    `,
    examples: [
      ["Check the machine and this project", "spex doctor"],
      ["As JSON, for scripts", "spex doctor --json"],
    ],
  });

  async execute(): Promise<number> {
    const report = runDoctor(spexHome(), projectHere());
    if (this.json) {
      writeJson(this.context.stdout, report);
      return report.ok ? 0 : 1;
    }
    const out = this.context.stdout;
    if (!report.project) out.write("not inside a git repository: machine checks only (run it in a repository for its launchers, git hook and leftovers)\n\n");
    out.write(formatTable(["CHECK", "OK", "DETAIL"], report.checks.map((c) => [c.name, c.ok ? "ok" : c.required ? "FAIL" : "missing", c.code ? `${c.detail} [${c.code}]` : c.detail])));
    const titles: Record<string, string> = {
      worktrees: "worktrees without a record",
      tmuxSessions: "tmux sessions without a record",
      retiredRecords: "retired records (worktree gone)",
      corruptRecords: "corrupt records (end what they name first; quarantine re-checks)",
      abandonedCreates: "creates that died before publishing",
      interruptedCloses: "closes killed after their record was removed (closing again finishes them)",
    };
    for (const [kind, title] of Object.entries(titles)) {
      const items = report.cleanup.filter((c) => c.kind === kind);
      const advice = (c: (typeof items)[number]) =>
        c.action === "inspect" ? `    inspect: ${shown(c.command)}\n    why: ${shown(c.reason)}\n` : `    remove: ${shown(c.command)}\n`;
      if (items.length) out.write(`\n${title}:\n${items.map((c) => `  ${shown(c.orphan)}\n${advice(c)}`).join("")}`);
    }
    return report.ok ? 0 : 1;
  }
}
