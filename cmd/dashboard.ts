import { Option } from "clipanion";
import type { Writable } from "node:stream";
import { SpexCommand } from "./base";
import { writeJson } from "../lib/cli/output";
import { currentProject } from "../lib/store";
import { type RunningDashboard, dashboardFor, openUrl } from "../lib/backend";

/** Hand the URL to the browser; say on stderr why nothing opened (the URL is printed either way). */
export async function openDashboard(url: string, stderr: Writable): Promise<boolean> {
  const opened = await openUrl(url);
  if (!opened.opened) stderr.write(`spex: could not open a browser (${opened.why}): open the URL yourself\n`);
  return opened.opened;
}

/** Print (and with `open`, open) a running backend's dashboard URL: the URL alone on stdout, or one JSON object. */
export async function showDashboard(running: RunningDashboard, opts: { open: boolean; json: boolean; stdout: Writable; stderr: Writable }): Promise<number> {
  const { url, dashboard, endpoint } = running;
  const opened = opts.open ? await openDashboard(dashboard, opts.stderr) : undefined;
  if (opts.json) {
    writeJson(opts.stdout, { instanceId: endpoint.instanceId, root: endpoint.root, pid: endpoint.pid, startedAt: endpoint.startedAt, version: endpoint.version, url, dashboard, ...(opened === undefined ? {} : { opened }) });
  } else opts.stdout.write(`${dashboard}\n`);
  return 0;
}

export class DashboardCommand extends SpexCommand {
  static paths = [["dashboard"]];
  static usage = SpexCommand.Usage({
    category: "Backend and checks",
    description: "print (or open) the dashboard URL of this project's running backend",
    details: `
      The URL carries the backend's token once (the page keeps it in the tab). It stays the same across restarts of \`spex serve\` unless \`serve --rotate-token\` made a new token (or the port moved), so a bookmarked or open tab gets back in.

      With SEL, the URL opens that session's panel (\`#/s/<id>\`). \`--open\` hands the URL to the system's opener (xdg-open, or open on macOS) as one argument; without one it is printed with a word on why nothing opened. Refuses with \`backend_not_running\` when no backend serves the project: start one with \`spex serve\`.
    `,
    examples: [
      ["Print the URL to paste into a browser", "spex dashboard"],
      ["Open it in the browser", "spex dashboard --open"],
      ["Open one session's panel", "spex dashboard 3f2a --open"],
    ],
  });

  selector = Option.String({ name: "SEL", required: false });
  open = Option.Boolean("--open", false, { description: "Open the URL in the browser (xdg-open, or open on macOS)" });

  async execute(): Promise<number> {
    const running = dashboardFor(currentProject(), this.selector);
    return showDashboard(running, { open: this.open, json: this.json, stdout: this.context.stdout, stderr: this.context.stderr });
  }
}
