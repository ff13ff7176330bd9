// `spex session forward SEL [PORT]` as a function: which port of which
// session, here or on another machine, and (for another machine) the
// forward that makes it reachable here (lib/machines/port-forward).
import { SpexError } from "../errors";
import { type Machine, findMachine, parseRemoteJson, readMachines, runSpexOn } from "../machines";
import { type PortForward, forwardPort, localPortFor } from "../machines/port-forward";
import { splitMachineSelector } from "../naming/machine";
import { resolveSelector } from "../sessions";
import { currentProject } from "../store";
import { parseBlock } from "../workspace/ports-env";

export interface ForwardRequest {
  selector: string;
  port?: number;
  machine?: string;
  repo?: string;
  localPort?: number;
}

export interface SessionPorts {
  id: string;
  ports: string | null;
  machine: Machine | undefined;
}

/** The machine a request names (`--machine`, or `NAME:` before the selector), and the bare selector. */
function target(req: ForwardRequest): { machine: Machine | undefined; selector: string } {
  const split = splitMachineSelector(req.selector);
  const name = req.machine ?? split?.machine;
  if (!name) return { machine: undefined, selector: req.selector };
  const machine = findMachine(name, readMachines());
  // A NAME: that is no machine is part of the selector (as for every session verb).
  if (!machine) {
    if (req.machine) throw new SpexError("machine_unknown", `no machine named ${name}`, { hint: "list them with `spex machine ls`" });
    return { machine: undefined, selector: req.selector };
  }
  return { machine, selector: split && !req.machine ? split.selector : req.selector };
}

export async function sessionPorts(req: ForwardRequest): Promise<SessionPorts> {
  const { machine, selector } = target(req);
  if (!machine) {
    const reading = resolveSelector(currentProject(), selector);
    return { id: reading.id, ports: reading.kind === "ok" ? reading.record.ports || null : null, machine };
  }
  const repo = req.repo ?? machine.repo;
  const answer = await runSpexOn(machine, ["session", "show", ...(repo ? ["--repo", repo] : []), selector, "--json"]);
  const shown = parseRemoteJson(machine, answer) as { id?: string; ports?: string | null; error?: { code: string; message: string; hint?: string } };
  if (shown.error) throw new SpexError(shown.error.code, `machine ${machine.name}: ${shown.error.message}`, { hint: shown.error.hint ?? "" });
  return { id: String(shown.id ?? ""), ports: shown.ports ?? null, machine };
}

/** The port asked for, inside the session's block (default: its first, SPEX_PORT). */
export function pickPort(s: SessionPorts, asked: number | undefined): number {
  const block = parseBlock(s.ports ?? undefined);
  if (!block) {
    throw new SpexError("ports_none", `session ${s.id.slice(0, 8)} holds no port block${s.machine ? ` on machine ${s.machine.name}` : ""}`, {
      hint: 'set "ports": N in the spexcode.json of its project (a block is given to each running session), then resume it',
    });
  }
  if (asked === undefined) return block.first;
  if (asked < block.first || asked > block.last) {
    throw new SpexError("usage", `port ${asked} is not in session ${s.id.slice(0, 8)}'s block ${s.ports}`, { hint: `give a port from ${s.ports}, or none for the first`, exitCode: 2 });
  }
  return asked;
}

export interface Forwarded {
  session: string;
  machine: string | null;
  remotePort: number;
  localPort: number;
  url: string;
  /** Whether a forward was opened (false: the session runs here, the port is already local). */
  forwarded: boolean;
  forward?: PortForward;
}

export async function forwardSessionPort(req: ForwardRequest): Promise<Forwarded> {
  const s = await sessionPorts(req);
  const remotePort = pickPort(s, req.port);
  if (!s.machine) return { session: s.id, machine: null, remotePort, localPort: remotePort, url: `http://127.0.0.1:${remotePort}/`, forwarded: false };
  const local = req.localPort ?? (await localPortFor(remotePort));
  const forward = await forwardPort(s.machine, local, remotePort);
  return { session: s.id, machine: s.machine.name, remotePort, localPort: local, url: forward.url, forwarded: true, forward };
}
