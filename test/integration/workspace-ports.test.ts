// Ports (issue 26 item 3): `"ports": N` gives each running session a block of
// N free ports, disjoint from every other session's, exported as SPEX_PORT
// and SPEX_PORTS to the agent and its terminals; released at stop and close,
// kept by resume; `spex session forward` reaches a port of a session on
// another machine over its shared ssh connection.
import { afterEach, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { type Server, connect, createServer } from "node:net";
import { join } from "node:path";
import { SPEX_BIN, type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { type SshFleet, sshFleet, sshUnavailable } from "../support/ssh-machines";

let sb: Sandbox;
let fleet: SshFleet | undefined;
let busy: Server | undefined;
afterEach(async () => {
  busy?.close();
  busy = undefined;
  await fleet?.cleanup();
  fleet = undefined;
  sb?.cleanup();
});

const SHOWS_ENV = `sh -c 'echo "env: $SPEX_PORT $SPEX_PORTS"; exec sleep 600' p`;

function rowOf(s: Sandbox, id: string): Record<string, any> {
  return (JSON.parse(s.spex(["session", "ls", "--all", "--json"]).stdout) as Record<string, any>[]).find((r) => r.id === id)!;
}

function start(s: Sandbox, prompt: string): { session_id: string; tmux_session: string } {
  const r = s.spex(["session", "new", "--launcher", "p", "--json", prompt]);
  if (r.code !== 0) throw new Error(`new exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

const pane = (s: Sandbox, name: string) => s.tmux(["capture-pane", "-p", "-t", `=${name}:`]).stdout;

/** Something else on this machine listens on `port` (on every address). */
function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen({ port, host: "0.0.0.0" }, () => resolve(server));
  });
}

describe("ports", () => {
  test("two running sessions get disjoint blocks of free ports, in their panes' and terminals' environment; close frees one, stop and resume keep one", async () => {
    sb = sandbox();
    // A port another program holds is passed over.
    busy = await listenOn(41500);
    writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ ports: 3, portRange: "41500-41529", launchers: { p: { harness: "shell", command: SHOWS_ENV } } }));
    const a = start(sb, "first server");
    const b = start(sb, "second server");
    expect(rowOf(sb, a.session_id).ports).toBe("41503-41505");
    expect(rowOf(sb, b.session_id).ports).toBe("41506-41508");
    await waitFor(() => pane(sb, a.tmux_session).includes("env: 41503 41503-41505"), "the first pane's environment");
    await waitFor(() => pane(sb, b.tmux_session).includes("env: 41506 41506-41508"), "the second pane's environment");
    expect(JSON.parse(sb.spex(["session", "show", a.session_id, "--json"]).stdout).workspace.ports).toBe("41503-41505");
    expect(JSON.parse(sb.spex(["snapshot", "--json"]).stdout).sessions.find((r: any) => r.id === b.session_id).ports).toBe("41506-41508");

    // A terminal beside a session shares its block.
    const term = JSON.parse(sb.spex(["terminal", "new", "--session", a.session_id, "--json"]).stdout);
    expect(sb.tmux(["show-environment", "-t", `=${term.tmux_session ?? term.tmuxSession}`, "SPEX_PORTS"]).stdout.trim()).toBe("SPEX_PORTS=41503-41505");

    // Close gives the block back: the next session takes it.
    expect(sb.spex(["session", "close", a.session_id, "--force"]).code).toBe(0);
    const c = start(sb, "third server");
    expect(rowOf(sb, c.session_id).ports).toBe("41503-41505");

    // Stop releases it; resume takes the same block back while it is still free.
    expect(sb.spex(["session", "stop", b.session_id]).code).toBe(0);
    expect(rowOf(sb, b.session_id).ports).toBe(null);
    expect(sb.spex(["session", "resume", b.session_id]).code).toBe(0);
    expect(rowOf(sb, b.session_id).ports).toBe("41506-41508");
  });

  test("no free block left refuses the launch with ports_unavailable", () => {
    sb = sandbox();
    writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ ports: 2, portRange: "41600-41601", launchers: { p: { harness: "shell", command: SHOWS_ENV } } }));
    start(sb, "takes the only block");
    const r = sb.spex(["session", "new", "--launcher", "p", "--json", "finds none"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("[ports_unavailable]");
  });
});

describe.skipIf(sshUnavailable() !== undefined)("forward", () => {
  test("spex session forward reaches the port of a session on another machine over its shared connection, until it ends", async () => {
    sb = sandbox();
    fleet = await sshFleet(sb, ["m1"]);
    const m = fleet.machines[0]!;
    Object.assign(sb.env, { SPEX_SSH_COMMAND: fleet.sshCommand, SPEX_MACHINE: "local" });
    expect(sb.spex(["machine", "add", "m1", "m1", "--repo", m.repo]).code).toBe(0);
    expect(sb.spex(["machine", "install", "m1"]).code).toBe(0);
    const server = `node -e 'require("http").createServer((q, r) => r.end("served on " + process.env.SPEX_PORT)).listen(+process.env.SPEX_PORT, "127.0.0.1")'`;
    writeFileSync(join(m.repo, "spexcode.local.json"), JSON.stringify({ ports: 2, portRange: "41700-41799", launchers: { srv: { harness: "shell", command: `sh -c '${server.replace(/'/g, `'"'"'`)}' srv` } } }));
    const created = sb.spex(["session", "new", "--machine", "m1", "--launcher", "srv", "--json", "serve"]);
    expect(created.stderr).toBe("");
    const id = JSON.parse(created.stdout).session_id;

    const child = spawn(SPEX_BIN, ["session", "forward", `m1:${id}`, "--json"], { cwd: sb.repo, env: sb.env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    let err = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const shown = await waitFor(() => (out.includes("\n") ? JSON.parse(out.split("\n")[0]!) : undefined), `the forward's URL (stderr: ${err})`, 30000);
    expect(shown).toMatchObject({ session: id, machine: "m1", remotePort: 41700, forwarded: true });
    // Both ends are this host here: the remote's own number is taken, so another local port was picked.
    expect(shown.localPort).not.toBe(41700);
    const body = await waitFor(async () => {
      try {
        return await (await fetch(shown.url)).text();
      } catch {
        return undefined;
      }
    }, "an answer through the forward", 20000);
    expect(body).toBe("served on 41700");

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    // A new connection is refused (an open one may outlive the listener).
    const refused = (port: number) =>
      new Promise<boolean>((resolve) => {
        const c = connect({ port, host: "127.0.0.1" });
        c.once("connect", () => (c.destroy(), resolve(false)));
        c.once("error", () => resolve(true));
      });
    await waitFor(() => refused(shown.localPort), "the forward to be gone once the command ended");
  });
});
