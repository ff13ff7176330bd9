import { Option } from "clipanion";
import * as t from "typanion";
import { SpexCommand } from "./base";

const GROUPINGS = ["session", "group", "launcher", "day"] as const;

export class UsageCommand extends SpexCommand {
  static paths = [["usage"]];
  static usage = SpexCommand.Usage({
    category: "Sessions",
    description: "tokens and cost of the project's sessions, read from each agent's own transcript",
    details: `
      Adds up what every session of the project used, as its agent's transcript reports it (Claude Code's project JSONL, Codex's rollout files, Gemini CLI's session files): fresh input, output, cache reads and cache writes, and their cost by the price table (defaults for the common models of the three CLIs; \`prices\` in spexcode.json overrides them). A model without a price shows its tokens and a cost of \`-\` (\`null\` with \`--json\`).

      \`--by\` groups the lines by session (default), group, launcher or day (UTC). \`--since\` keeps the days from one on: a day (2026-11-30) or a span back from today (7d, 2w). Each transcript is read only past where the last read stopped, so a repeated report reads nothing new. docs/attention.md has the details.
    `,
    examples: [
      ["What each session cost", "spex usage"],
      ["The last week, day by day, as JSON", "spex usage --since 7d --by day --json"],
      ["By launcher since the first of the month", "spex usage --by launcher --since 2026-12-01"],
    ],
  });

  since = Option.String("--since", { description: "Only the days from this one on (2026-11-30, 7d, 2w)" });
  by = Option.String("--by", { description: "Group by session, group, launcher or day", validator: t.isEnum(GROUPINGS) });

  async execute(): Promise<number> {
    // Loaded here: the registry imports every command file, and this one's library is not small.
    const { currentProject } = await import("../lib/store");
    const { usageReport, parseSince } = await import("../lib/attention/report");
    const { formatCost, formatTokens } = await import("../lib/attention/usage/summary");
    const { formatTable, printableLine, writeJson } = await import("../lib/cli/output");
    const report = await usageReport(currentProject(), { by: this.by, since: this.since === undefined ? undefined : parseSince(this.since) });
    if (this.json) {
      writeJson(this.context.stdout, report);
      return 0;
    }
    const keyHeader = { session: "SESSION", group: "GROUP", launcher: "LAUNCHER", day: "DAY" }[report.by];
    const cells = [...report.lines, report.total].map((l) => [
      l === report.total ? "total" : l.label ? `${l.key} ${l.label}` : l.key,
      String(l.sessions),
      formatTokens(l.input),
      formatTokens(l.output),
      formatTokens(l.cacheRead),
      formatTokens(l.cacheWrite),
      formatTokens(l.total),
      formatCost(l.costUsd) + (l.unpriced.length > 0 && l.costUsd !== null ? "+" : ""),
    ]);
    this.context.stdout.write(formatTable([keyHeader, "SESSIONS", "INPUT", "OUTPUT", "CACHE READ", "CACHE WRITE", "TOTAL", "COST"], cells));
    const unpriced = [...new Set(report.lines.flatMap((l) => l.unpriced))];
    if (unpriced.length > 0) this.context.stdout.write(`${printableLine(`no price for ${unpriced.join(", ")}: their tokens are counted, not costed (add them under "prices" in spexcode.json)`)}\n`);
    return 0;
  }
}
