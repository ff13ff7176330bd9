import { Option } from "clipanion";
import * as t from "typanion";
import { SpexCommand } from "./base";
import { currentProject } from "../lib/store";
import { startBackend } from "../lib/backend";
import "../lib/comms/install";

export class ServeCommand extends SpexCommand {
  static paths = [["serve"]];
  static usage = SpexCommand.Usage({
    category: "Backend",
    description: "serve this project's HTTP API and live dashboard",
    details: `
      One backend per project: it records its address, pid and a fresh token in SPEX_HOME (the token file is readable only by you), and a second \`serve\` for the same project refuses with \`backend_running\`, naming the first. A backend that died leaves a record the next \`serve\` replaces. The record is removed on Ctrl-C, SIGTERM or SIGHUP.

      While a backend serves the project, \`spex session new\` sends creates to it (keyed, so a retry never makes two sessions), once it has proved it holds the token; the other verbs work the same with or without it.

      It listens on 127.0.0.1 and answers only requests addressed to a loopback name with its port. Every request except the identity probe (GET /api/instance) needs the token, reads and the event stream included; the dashboard URL printed at start carries it once.
    `,
    examples: [
      ["Serve on any free port and open the printed dashboard URL", "spex serve"],
      ["A fixed port", "spex serve --port 7420"],
      ["Print the address and token as one JSON line (for scripts)", "spex serve --json"],
    ],
  });

  port = Option.String("--port", { description: "TCP port (default: any free port)", validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(0, 65535)]) });
  host = Option.String("--host", { description: "Address to bind (default 127.0.0.1; anything else exposes the API to that network)" });

  async execute(): Promise<number> {
    const store = currentProject();
    const backend = await startBackend(store, { port: this.port, host: this.host });
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
    if (this.json) {
      out.write(JSON.stringify({ ...backend.instance, url: backend.url, dashboard: backend.dashboardUrl, token: backend.token }) + "\n");
    } else {
      out.write(
        `serving ${store.root}\n  api        ${backend.url}/api\n  dashboard  ${backend.dashboardUrl}\n  pid        ${process.pid}\nstop with Ctrl-C\n`,
      );
    }
    await stopped;
    return 0;
  }
}
