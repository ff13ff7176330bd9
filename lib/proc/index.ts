// The one liveness probe (DESIGN.md §1.5): a pid plus its start time plus the
// boot id names one process for the life of the machine, so a reused pid never
// passes for the process we recorded.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

export interface ProcessIdentity {
  pid: number;
  /** Start time in clock ticks since boot (field 22 of /proc/<pid>/stat). */
  start: string;
  boot: string;
}

let cachedBoot: string | undefined;
export function bootId(): string {
  if (cachedBoot === undefined) {
    try {
      cachedBoot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    } catch {
      cachedBoot = "unknown-boot";
    }
  }
  return cachedBoot;
}

interface StatFields {
  state: string;
  start: string;
  ppid: number;
}

function readStat(pid: number): StatFields | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: split after the last ')'.
  const rest = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { state: rest[0] ?? "", ppid: Number(rest[1]), start: rest[19] ?? "" };
}

/** The identity of a live process, or undefined when the pid names none (zombies count as gone). */
export function processIdentity(pid: number): ProcessIdentity | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const stat = readStat(pid);
  if (!stat || stat.state === "Z" || stat.state === "X") return undefined;
  return { pid, start: stat.start, boot: bootId() };
}

export function parentPid(pid: number): number | undefined {
  return readStat(pid)?.ppid;
}

let cachedSelf: ProcessIdentity | undefined;
export function selfIdentity(): ProcessIdentity {
  cachedSelf ??= processIdentity(process.pid) ?? { pid: process.pid, start: "", boot: bootId() };
  return cachedSelf;
}

/**
 * What a recorded leaf is now:
 * - `dead`: the pid names no live process (or none was recorded);
 * - `owned`: alive and its start identity matches the record;
 * - `unprovable`: alive but it cannot prove it is the process we recorded.
 */
export type LeafState = "dead" | "owned" | "unprovable";

export function probeLeaf(pid: number | string, start: string, boot?: string): LeafState {
  const n = typeof pid === "string" ? Number(pid) : pid;
  if (!n) return "dead";
  const now = processIdentity(n);
  if (!now) return "dead";
  if (boot && boot !== now.boot) return "unprovable";
  return start !== "" && now.start === start ? "owned" : "unprovable";
}

/** A recorded owner (pid, start, boot) is still the same live process. */
export function ownerAlive(owner: { pid: number; start: string; boot: string }): boolean {
  if (owner.boot !== bootId()) return false;
  const now = processIdentity(owner.pid);
  return !!now && now.start === owner.start;
}

function environBytes(pid: number): Buffer | undefined {
  try {
    return readFileSync(`/proc/${pid}/environ`);
  } catch {
    return undefined;
  }
}

/**
 * The environment a process started with (/proc/<pid>/environ), or undefined
 * when it cannot be read (gone, or another user's). Later setenv calls inside
 * the process do not show here: this is what it inherited.
 */
export function processEnviron(pid: number): Map<string, string> | undefined {
  const bytes = environBytes(pid);
  if (!bytes) return undefined;
  const env = new Map<string, string>();
  for (const entry of bytes.toString("utf8").split("\0")) {
    const eq = entry.indexOf("=");
    if (eq > 0) env.set(entry.slice(0, eq), entry.slice(eq + 1));
  }
  return env;
}

/** A test of "does this process's start environment hold exactly `name=value`": one read, no parsing (for scans of every pid). */
export function environMatcher(name: string, value: string): (pid: number) => boolean {
  const entry = Buffer.from(`${name}=${value}\0`);
  const inner = Buffer.concat([Buffer.from([0]), entry]);
  return (pid) => {
    const bytes = environBytes(pid);
    return !!bytes && (bytes.subarray(0, entry.length).equals(entry) || bytes.includes(inner));
  };
}

/** Every pid /proc lists right now. */
export function listPids(): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (Number.isInteger(pid) && pid > 0) pids.push(pid);
  }
  return pids;
}

/** Clock ticks per second of /proc/<pid>/stat start times (USER_HZ: 100 on every Linux ABI spex runs on). */
const TICKS_PER_SECOND = 100;
let cachedBootMs: number | undefined;

/** When a process with this start identity began, in ms since the epoch (whole-second precision of the boot time). */
export function startedAtMs(start: string): number {
  if (cachedBootMs === undefined) {
    const line = /^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"));
    cachedBootMs = line ? Number(line[1]) * 1000 : 0;
  }
  return cachedBootMs + (Number(start) * 1000) / TICKS_PER_SECOND;
}

/** The program a process runs (/proc/<pid>/exe), or "" when it cannot be read; a replaced binary keeps its path. */
export function processExe(pid: number): string {
  try {
    return readlinkSync(`/proc/${pid}/exe`).replace(/ \(deleted\)$/, "");
  } catch {
    return "";
  }
}

/** A process's argv (/proc/<pid>/cmdline), or [] when it cannot be read. */
export function processArgv(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(0, -1);
  } catch {
    return [];
  }
}
