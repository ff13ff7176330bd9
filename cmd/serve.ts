import { Option } from "clipanion";
import * as t from "typanion";
import { SpexCommand } from "./base";
import { openDashboard, showDashboard } from "./dashboard";
import { currentProject } from "../lib/store";
import { findRunning, requireRunning, startBackend } from "../lib/backend";
import "../lib/comms/install";

export class ServeCommand extends SpexCommand {
  static paths = [["serve"]];
  static usage = SpexCommand.Usage({
    category: "Backend and checks",
    description: "serve this project's HTTP API and live dashboard",
    details: `
      One backend per project: it records its address and pid in SPEX_HOME beside the project's token (readable only by you). The token and the port stay the same from one \`serve\` to the next, so open dashboard tabs reconnect after a restart; \`--rotate-token\` makes a new token (open tabs must then reopen the URL). If another program took the port meanwhile, \`serve\` listens on a new port with a new token and says so. A second \`serve\` for the same project refuses with \`backend_running\`, naming the first and its dashboard URL (\`--open\` opens that one instead). A backend that died leaves a record the next \`serve\` replaces. The record is removed on Ctrl-C, SIGTERM or SIGHUP.

      While a backend serves the project, \`spex session new\` sends creates to it (keyed, so a retry never makes two sessions), once it has proved it holds the token; the other verbs work the same with or without it.

      It listens on 127.0.0.1 and answers only requests addressed to a loopback name with its port. Every request except the identity probe (GET /api/instance) and the page's own files needs the token, reads and the event stream included; the dashboard URL carries it once. \`spex dashboard\` (or \`serve --url\`) prints that URL again.
    `,
    examples: [
      ["Serve (on the project's port) and open the dashboard", "spex serve --open"],
      ["A fixed port", "spex serve --port 7420"],
      ["Print the running backend's dashboard URL", "spex serve --url"],
      ["Restart with a new token (open tabs are locked out)", "spex serve --rotate-token"],
      ["Print the address and token as one JSON line (for scripts)", "spex serve --json"],
    ],
  });

  port = Option.String("--port", { description: "TCP port (default: the project's port from last time, else any free port)", validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(0, 65535)]) });
  host = Option.String("--host", { description: "Address to bind (default 127.0.0.1; anything else exposes the API to that network)" });
  url = Option.Boolean("--url", false, { description: "Print the running backend's dashboard URL and exit (as `spex dashboard`)" });
  open = Option.Boolean("--open", false, { description: "Open the dashboard in the browser (the running one's, if a backend already serves)" });
  rotateToken = Option.Boolean("--rotate-token", false, { description: "Make a new token instead of keeping the project's" });

  async execute(): Promise<number> {
    const store = currentProject();
    const io = { json: this.json, stdout: this.context.stdout, stderr: this.context.stderr };
    if (this.url) return showDashboard(requireRunning(store), { ...io, open: this.open });
    const running = this.open ? findRunning(store) : undefined;
    if (running) return showDashboard(running, { ...io, open: true });
    const backend = await startBackend(store, { port: this.port, host: this.host, rotateToken: this.rotateToken });
    // Signal handlers before the address is printed: a caller that reads the
    // address and sends SIGTERM at once must still find the record removed.
    const stopped = new Promise<void>((resolve) => {
      const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
      const stop = () => {
        for (const s of signals) process.off(s, stop);
        void backend.close().then(resolve, resolve);
      };
      for (const s of signals) process.on(s, stop);
    });
    const out = this.context.stdout;
    const { moved } = backend;
    if (this.json) {
      out.write(JSON.stringify({ ...backend.instance, url: backend.url, dashboard: backend.dashboardUrl, token: backend.token, tokenIsNew: backend.tokenIsNew, ...(moved ? { moved } : {}) }) + "\n");
    } else {
      const note = moved
        ? `note: port ${moved.from} was taken by another program: serving on a new port with a new token; reopen the dashboard URL below\n`
        : "";
      out.write(
        `${note}serving ${store.root}\n  api        ${backend.url}/api\n  dashboard  ${backend.dashboardUrl}\n  pid        ${process.pid}\nstop with Ctrl-C\n`,
      );
    }
    if (this.open) await openDashboard(backend.dashboardUrl, this.context.stderr);
    await stopped;
    return 0;
  }
}
