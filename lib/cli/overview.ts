// `spex help` (and `spex --help`): every documented command by category, in
// the order of lib/cli/categories.ts, each with its usage line and
// description. Rendered from the command manifest, so listing the commands
// loads none of them.
import { sortCategories } from "./categories";
import type { CommandEntry } from "./manifest";

/** The `help` verb itself: it has no class (the entry point answers it), so it is listed here. */
const HELP_ROW = { category: "Backend and checks", usage: "spex help [command...]", description: "list every command, or show one command's help page (the same as `spex <command> --help`)" };

type OverviewEntry = Pick<CommandEntry, "hidden" | "category" | "usage" | "description">;

/** All of the overview but its first line (the version): made at build time into lib/generated/overview.ts. */
export function renderOverviewBody(entries: readonly OverviewEntry[]): string {
  const rows = [...entries.filter((e) => !e.hidden).map((e) => ({ category: e.category || "Commands", usage: e.usage, description: e.description || "undocumented" })), HELP_ROW];
  let out = "\n  $ spex <command>\n";
  for (const category of sortCategories(rows.map((r) => r.category))) {
    out += `\n${category}\n`;
    const inCategory = rows.filter((r) => r.category === category).sort((a, b) => a.usage.localeCompare(b.usage, "en"));
    for (const r of inCategory) out += `\n  ${r.usage}\n    ${r.description}\n`;
  }
  out += "\n`spex <command> --help` shows a command's options, details and examples; `spex session` (any namespace) lists its verbs.\n";
  return out;
}

export const overviewHead = (version: string): string => `spex - ${version}\n`;

export function renderOverview(entries: readonly OverviewEntry[], version: string): string {
  return overviewHead(version) + renderOverviewBody(entries);
}
