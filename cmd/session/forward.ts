import { Option } from "clipanion";
import * as t from "typanion";
import { SpexCommand } from "../base";

export class SessionForwardCommand extends SpexCommand {
  static paths = [["session", "forward"]];
  static usage = SpexCommand.Usage({
    category: "Sessions",
    description: "reach a port of a session's block from here (ssh -L for a session on another machine)",
    details: `
      A session started with \`"ports": N\` in its project's spexcode.json holds a block of N ports while it runs (\`SPEX_PORT\` is the first, \`SPEX_PORTS\` is \`first-last\`). PORT is one of them, by default the first.

      For a session on another machine (\`NAME:SEL\` or \`--machine NAME\`), the machine's shared ssh connection listens on 127.0.0.1 here (the same port number when it is free, else one the system picks) and forwards to that port there; the local URL is printed and the forward lasts until this command ends (Ctrl-C). For a session on this machine the port is already here: its URL is printed and nothing is opened.
    `,
    examples: [
      ["The first port of a session on machine gpu1", "spex session forward gpu1:api"],
      ["A given port of its block, on a chosen local port", "spex session forward --machine gpu1 3f2a 20003 --local-port 8080"],
      ["The URL as JSON (printed once the forward listens)", "spex session forward gpu1:api --json"],
    ],
  });

  selector = Option.String({ name: "SEL" });
  port = Option.String({ name: "PORT", required: false, validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1, 65535)]) });
  machine = Option.String("--machine", { description: "The machine the session runs on (see `spex machine ls`); NAME:SEL does the same" });
  repo = Option.String("--repo", { description: "The repository on that machine (default: the machine's own)" });
  localPort = Option.String("--local-port", { description: "The port to listen on here", validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1, 65535)]) });

  async execute(): Promise<number> {
    const { forwardSessionPort } = await import("../../lib/verbs/forward");
    const f = await forwardSessionPort({ selector: this.selector, port: this.port, machine: this.machine, repo: this.repo, localPort: this.localPort });
    const { forward, ...shown } = f;
    if (this.json) this.context.stdout.write(JSON.stringify(shown) + "\n");
    else if (!f.forwarded) this.context.stdout.write(`${f.url}\n`);
    else this.context.stdout.write(`${f.url}  (port ${f.remotePort} of session ${f.session.slice(0, 8)} on ${f.machine}; Ctrl-C ends the forward)\n`);
    if (!forward) return 0;
    // Held until interrupted, or until the connection that carries it ends.
    const stop = new Promise<"signal">((resolve) => {
      for (const s of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(s, () => resolve("signal"));
    });
    const how = await Promise.race([stop, forward.ended.then(() => "ended" as const)]);
    await forward.close();
    return how === "signal" ? 0 : 1;
  }
}
