// `spex session forward`: a port of a session on another machine, reachable
// here. Over the machine's shared connection when there is one: the master
// is asked to listen (`ssh -O forward -L`), a quiet session through it keeps
// it up for as long as the forward is wanted, and `-O cancel` takes the
// listener back. Without connection sharing, one `ssh -N -L` of its own.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { SpexError } from "../errors";
import type { Machine } from "./list";
import { controlPath, runSsh, sshInvocation } from "./ssh";

export interface PortForward {
  localPort: number;
  remotePort: number;
  url: string;
  /** Ends the forward (the listener here goes away). */
  close(): Promise<void>;
  /** Settles when the forward ended by itself (the connection dropped): the exit status of what held it. */
  ended: Promise<number>;
}

/** Listen on 127.0.0.1:`port` and let go: the port it got, or undefined when it is taken. */
function freePort(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(undefined));
    server.listen({ port, host: "127.0.0.1", exclusive: true }, () => {
      const got = (server.address() as { port: number }).port;
      server.close(() => resolve(got));
    });
  });
}

/** A local port: the remote's own number when it is free here, else one the system picks. */
export function localPortFor(remotePort: number): Promise<number> {
  return freePort(remotePort).then((p) => p ?? freePort(0).then((q) => q!));
}

/** The ssh options (up to `--`) every call to this machine uses. */
function sshHead(machine: Machine): { file: string; head: string[] } {
  const { file, args } = sshInvocation(machine, "true");
  return { file, head: args.slice(0, args.indexOf("--")) };
}

function run(file: string, args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.once("error", (e) => resolve({ code: -1, stderr: e.message }));
    child.once("close", (code) => resolve({ code: code ?? -1, stderr }));
  });
}

function forwardFailed(machine: Machine, spec: string, why: string): SpexError {
  return new SpexError("forward_failed", `ssh could not forward ${spec} to machine ${machine.name}: ${why.replace(/\s+/g, " ").trim() || "no reason given"}`, {
    hint: "check that the machine answers (`spex machine ls`) and that the local port is free; give another local port with --local-port",
    details: { machine: machine.name },
  });
}

const exitOf = (child: ChildProcess) => new Promise<number>((resolve) => child.once("close", (code) => resolve(code ?? -1)));

/** Forward 127.0.0.1:`localPort` here to 127.0.0.1:`remotePort` on the machine. */
export async function forwardPort(machine: Machine, localPort: number, remotePort: number): Promise<PortForward> {
  const spec = `127.0.0.1:${localPort}:127.0.0.1:${remotePort}`;
  const url = `http://127.0.0.1:${localPort}/`;
  const { file, head } = sshHead(machine);
  const handle = (ended: Promise<number>, close: () => Promise<void>): PortForward => ({ localPort, remotePort, url, ended, close });
  if (controlPath(machine)) {
    // The master first (it is made if there is none), then the listener in it.
    await runSsh(machine, "true");
    const added = await run(file, [...head, "-O", "forward", "-L", spec, "--", machine.destination]);
    if (added.code !== 0) throw forwardFailed(machine, spec, added.stderr);
    // A session through the master keeps it up while the forward is wanted (its stdin ends with us).
    const hold = spawn(file, [...head, "-T", "--", machine.destination, "cat >/dev/null"], { stdio: ["pipe", "ignore", "ignore"] });
    hold.stdin!.on("error", () => {});
    const ended = exitOf(hold);
    return handle(ended, async () => {
      await run(file, [...head, "-O", "cancel", "-L", spec, "--", machine.destination]);
      hold.stdin!.end();
      await ended;
    });
  }
  const child = spawn(file, [...head, "-N", "-o", "ExitOnForwardFailure=yes", "-L", spec, "--", machine.destination], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const ended = exitOf(child);
  // Listening once the port is taken here, or failed once ssh ended.
  const deadline = Date.now() + 15000;
  while ((await freePort(localPort)) !== undefined) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill();
      throw forwardFailed(machine, spec, stderr);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return handle(ended, async () => {
    child.kill();
    await ended;
  });
}
