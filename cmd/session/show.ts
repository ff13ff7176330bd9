import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { RemotableCommand } from "../remotable";
import type { RemoteSpec } from "../../lib/machines";
import { printable, trimScreen, writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { showSession } from "../../lib/verbs/show";
import { formatCost, formatTokens } from "../../lib/attention/usage/summary";
import { REASON_TEXT } from "../../lib/survive/reason";
import type { WorkspaceDetail } from "../../lib/workspace/detail";

/** The last setup in one line: how it went and where its log is. */
function workspaceSetupLine(w: WorkspaceDetail | null): string {
  const s = w?.setup;
  if (!s) return "";
  const how = s.state === "failed" ? `failed (${s.reason ?? "see the log"})` : s.state === "ok" ? "done" : "running";
  return `${how}, log ${s.log}`;
}

export class SessionShowCommand extends RemotableCommand {
  static paths = [["session", "show"]];
  static remote: RemoteSpec = { selectors: "selector" };
  static usage = SpexCommand.Usage({
    category: "Sessions",
    description: "show one session: the full record, the full prompt and its screen",
    details: `
      SEL is a full id, a unique id prefix, a name, a node, a branch, or \`.\` for the session whose worktree you are in.

      A session with a tmux pane shows its screen as it is now (\`screen\` in \`--json\`); one without shows the last screen saved when it was stopped or archived (\`lastScreen\`). \`spex session read\` prints the screen alone, with scrollback or colours.
    `,
    examples: [
      ["Show a session by id prefix", "spex session show 3f2a"],
      ["The session of the current worktree, as JSON", "spex session show . --json"],
    ],
  });

  selector = Option.String({ name: "SEL" });

  async execute(): Promise<number> {
    const { detail, screen, json, workspace, budget } = await showSession(currentProject(), this.selector);
    if (this.json) {
      writeJson(this.context.stdout, json);
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
      ["offline", row.offlineReason ? `${row.offlineReason}: ${REASON_TEXT[row.offlineReason]}` : ""],
      ["stopped", row.stopped ? `yes: the agent was stopped; \`spex session resume ${row.shortId}\` relaunches it` : ""],
      ["archived", row.archived ? "yes: hidden from `spex session ls` unless --all" : ""],
      ["branch", row.branch],
      ["worktree", row.worktree],
      ["base", row.base ?? "(default branch)"],
      ["node", row.node],
      ["parent", row.parent],
      ["harness", `${row.harness}${row.launcher ? ` via launcher ${row.launcher}` : ""}${row.model ? `, model ${row.model}` : ""}${row.effort ? `, effort ${row.effort}` : ""}`],
      ["folder", row.directory],
      ["queued", row.queuePosition !== null ? `#${row.queuePosition}: it launches when a slot frees` : ""],
      ["files", row.files === null ? "(files.json cannot be read)" : row.files.join(", ")],
      ["setup", workspaceSetupLine(workspace)],
      ["included", workspace?.included ? [...workspace.included.copied.map((c) => c.path), ...workspace.included.skipped.map((s) => `not ${s.path} (${s.reason})`)].join(", ") : ""],
      ["ports", workspace?.ports ? `${workspace.ports} (SPEX_PORT ${workspace.ports.split("-")[0]})` : ""],
      ["sandbox", workspace?.sandbox ?? ""],
      ["proposal", row.proposal],
      ["note", detail.note],
      ["stall", row.stall ?? ""],
      [
        "budget",
        budget
          ? `${[budget.usd !== null ? formatCost(budget.usd) : "", budget.tokens !== null ? `${budget.tokens} tokens` : ""].filter(Boolean).join(" or ")}, ${budget.percent} % spent${budget.hard ? ", hard" : ""}${budget.scope === "tree" ? ", with its children" : ""} (from ${budget.source})`
          : "",
      ],
      [
        "usage",
        row.usage
          ? `${formatTokens(row.usage.total)} tokens (input ${row.usage.input}, output ${row.usage.output}, cache read ${row.usage.cacheRead}, cache write ${row.usage.cacheWrite}), ${row.usage.costUsd === null ? `no price for ${row.usage.unpriced.join(", ")}` : formatCost(row.usage.costUsd)}`
          : "",
      ],
      ["created", row.createdAt],
      ["updated", row.updatedAt],
    ];
    for (const [k, v] of lines) if (v) out.write(`${k.padEnd(9)}${printable(v)}\n`);
    out.write(`\nprompt:\n${printable(detail.prompt)}\n`);
    if (screen) out.write(`\nscreen:\n${printable(screen)}\n`);
    else if (detail.lastScreen && trimScreen(detail.lastScreen)) out.write(`\nlast screen:\n${printable(trimScreen(detail.lastScreen))}\n`);
    return 0;
  }
}
