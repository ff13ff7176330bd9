// The machine list: `$SPEX_HOME/machines.json`, written only by the durable
// no-follow writer under a lock, read three ways like every state file (absent
// is an empty list, corrupt is refused, never repaired).
import { join } from "node:path";
import { SpexError } from "../errors";
import { withLock } from "../lock";
import { readFileNoFollow, writeFileNoFollow } from "../nofollow";
import { isMachineName } from "../naming/machine";
import { spexHome } from "../store";

export const MACHINES_SCHEMA = "spex.machines.v1";

export interface Machine {
  name: string;
  /** What ssh is given: a host, `user@host`, or a Host alias of the user's ssh config. */
  destination: string;
  /** ssh's `-p`, or null for ssh's own default (or the config's). */
  port: number | null;
  /** The repository on that machine session verbs act in when no `--repo` is given ("" for none). */
  repo: string;
  addedAt: string;
}

interface MachinesFile {
  schemaVersion: typeof MACHINES_SCHEMA;
  machines: Machine[];
}

export function machinesFile(home = spexHome()): string {
  return join(home, "machines.json");
}

function corrupt(file: string, why: string): SpexError {
  return new SpexError("machines_corrupt", `${file} is not a machine list spex can use: ${why}`, {
    hint: "fix or remove that file (spex machine add writes a fresh one)",
    details: { file },
  });
}

export function requireMachineName(name: string): string {
  if (!isMachineName(name)) {
    throw new SpexError("machine_name_invalid", `"${name}" is not a machine name`, {
      hint: "use letters, digits, '.', '_' and '-' (no ':' or ','), starting with a letter or digit, at most 63 characters",
      exitCode: 2,
    });
  }
  return name;
}

/** An ssh destination that ssh cannot take for an option and that holds no blanks or control characters. */
export function requireDestination(destination: string): string {
  if (destination === "" || destination.startsWith("-") || /[\s\u0000-\u001f\u007f]/u.test(destination)) {
    throw new SpexError("machine_destination_invalid", `"${destination}" is not an ssh destination spex will pass on`, {
      hint: "give a host name, user@host or a Host alias from your ssh config (not starting with '-', no spaces)",
      exitCode: 2,
    });
  }
  return destination;
}

function validEntry(m: unknown): m is Machine {
  if (typeof m !== "object" || m === null) return false;
  const e = m as Record<string, unknown>;
  return (
    typeof e.name === "string" && isMachineName(e.name) &&
    typeof e.destination === "string" && e.destination !== "" && !e.destination.startsWith("-") && !/[\s\u0000-\u001f\u007f]/u.test(e.destination) &&
    (e.port === null || (typeof e.port === "number" && Number.isInteger(e.port) && e.port >= 1 && e.port <= 65535)) &&
    typeof e.repo === "string" && typeof e.addedAt === "string"
  );
}

export function readMachines(home = spexHome()): Machine[] {
  const file = machinesFile(home);
  let text: string | undefined;
  try {
    text = readFileNoFollow(home, "machines.json");
  } catch (e) {
    if (e instanceof SpexError) throw corrupt(file, e.message);
    throw e;
  }
  if (text === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw corrupt(file, (e as Error).message);
  }
  const p = parsed as Partial<MachinesFile> | null;
  if (typeof p !== "object" || p === null || p.schemaVersion !== MACHINES_SCHEMA || !Array.isArray(p.machines)) {
    throw corrupt(file, `expected {"schemaVersion":"${MACHINES_SCHEMA}","machines":[…]}`);
  }
  const bad = p.machines.findIndex((m) => !validEntry(m));
  if (bad >= 0) throw corrupt(file, `entry ${bad} is not a valid machine`);
  return p.machines;
}

/** The configured machine of this name (names compare ignoring case), if any. */
export function findMachine(name: string, machines: Machine[]): Machine | undefined {
  const lower = name.toLowerCase();
  return machines.find((m) => m.name.toLowerCase() === lower);
}

export function requireMachine(name: string, machines: Machine[]): Machine {
  const m = findMachine(name, machines);
  if (!m) {
    throw new SpexError("machine_unknown", `no machine named ${name}`, {
      hint: machines.length > 0 ? `known machines: ${machines.map((x) => x.name).join(", ")}; add one with \`spex machine add NAME DESTINATION\`` : "add it with `spex machine add NAME DESTINATION`",
    });
  }
  return m;
}

/** Read, change and write the list under its lock, so two `machine add` never lose one another. */
export async function updateMachines<T>(change: (machines: Machine[]) => { machines: Machine[]; result: T }, home = spexHome()): Promise<T> {
  return withLock(join(home, "locks", "machines.lock"), () => {
    const { machines, result } = change(readMachines(home));
    const file: MachinesFile = { schemaVersion: MACHINES_SCHEMA, machines };
    writeFileNoFollow(home, "machines.json", JSON.stringify(file, null, 2) + "\n", { mode: 0o600, forceMode: true, durable: true });
    return result;
  }, { purpose: "machine list" });
}

/** Add a machine; a name already taken (ignoring case) is refused. */
export async function addMachine(entry: { name: string; destination: string; port: number | null; repo: string }, home = spexHome()): Promise<Machine> {
  requireMachineName(entry.name);
  requireDestination(entry.destination);
  return updateMachines((machines) => {
    const taken = findMachine(entry.name, machines);
    if (taken) {
      throw new SpexError("machine_exists", `a machine named ${taken.name} is already configured (${taken.destination})`, {
        hint: `remove it first with \`spex machine rm ${taken.name}\`, or pick another name`,
      });
    }
    const machine: Machine = { ...entry, addedAt: new Date().toISOString() };
    return { machines: [...machines, machine], result: machine };
  }, home);
}

/** Remove a machine by name; the removed entry. */
export function removeMachine(name: string, home = spexHome()): Promise<Machine> {
  return updateMachines((machines) => {
    const gone = requireMachine(name, machines);
    return { machines: machines.filter((m) => m !== gone), result: gone };
  }, home);
}
