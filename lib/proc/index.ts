// The one liveness probe (DESIGN.md §1.5): a pid plus its start identity names
// one process for the life of the machine, so a reused pid never passes for
// the process we recorded. The facts come from /proc on Linux and from `ps`
// elsewhere (SPEX_PROC=ps forces that on Linux); what counts as "the same
// process" is decided here, once, for both (lib/proc/identity.ts).
import { readlinkSync } from "node:fs";
import { pidExists } from "./exists";
import { startForm } from "./identity";
import { procBackend } from "./select";
import { judge } from "./verdict";

export { startForm, type StartForm } from "./identity";
export { procBackend } from "./select";

export interface ProcessIdentity {
  pid: number;
  /** Start identity: ticks since boot (/proc) or `@`seconds since the epoch (ps); see identity.ts. */
  start: string;
  boot: string;
}

export function bootId(): string {
  return procBackend().boot();
}

/**
 * The boot an agent started now is recorded under (its record's agent_boot),
 * and the one a reader compares it with to tell a machine that restarted.
 * SPEX_TEST_BOOT_ID stands in for it in tests that simulate a restart; it
 * never touches the owner identity of locks and claims (bootId).
 */
export function agentBoot(): string {
  return process.env.SPEX_TEST_BOOT_ID || bootId();
}

/** The identity of a live process, or undefined when the pid names none (zombies count as gone). */
export function processIdentity(pid: number): ProcessIdentity | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const backend = procBackend();
  const info = backend.info(pid);
  return info ? { pid, start: info.start, boot: backend.boot() } : undefined;
}

export function parentPid(pid: number): number | undefined {
  return procBackend().parentOf(pid);
}

/** The process group a live process leads or belongs to, or undefined when it is gone. */
export function processGroup(pid: number): number | undefined {
  return procBackend().info(pid)?.pgid;
}

/** pid, its parent, grandparent … (at most `max`), read in one look. */
export function ancestry(pid: number, max = 64): number[] {
  return procBackend().ancestry(pid, max);
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

function leafState(pid: number | string, start: string, boot: string | undefined, look: "exact" | "shown"): LeafState {
  const n = typeof pid === "string" ? Number(pid) : pid;
  if (!Number.isInteger(n) || n <= 0) return "dead";
  const verdict = judge(procBackend(), n, start, boot || undefined, look);
  return verdict === "dead" ? "dead" : verdict === "same" ? "owned" : "unprovable";
}

export function probeLeaf(pid: number | string, start: string, boot?: string): LeafState {
  return leafState(pid, start, boot, "exact");
}

/**
 * probeLeaf for what is only shown (list rows, a status line): under `ps` it
 * may answer from a look at every process taken a moment ago, so a listing of
 * a fleet starts one `ps`. Never ask it before signalling anything.
 */
export function probeLeafShown(pid: number | string, start: string): LeafState {
  return leafState(pid, start, undefined, "shown");
}

/** Owners proved alive lately (key → when): a waiter polling a held lock re-proves it at most once a second. */
const provedAlive = new Map<string, number>();
const REPROVE_MS = 1000;

/**
 * A recorded owner (pid, start, boot) is still the same live process. An
 * owner this backend cannot check counts as alive while its pid lives: a
 * live owner is never taken for a dead one (at worst its lock times out).
 * Between proofs only "the pid still exists" is asked: an owner that died
 * and whose pid was reused within that second reads alive a little longer,
 * which delays a takeover and never allows a wrong one.
 */
export function ownerAlive(owner: { pid: number; start: string; boot: string }): boolean {
  if (!Number.isInteger(owner.pid) || owner.pid <= 0) return false;
  const key = `${owner.pid}/${owner.start}/${owner.boot}`;
  const proved = provedAlive.get(key);
  if (proved !== undefined && Date.now() - proved < REPROVE_MS && pidExists(owner.pid)) return true;
  const verdict = judge(procBackend(), owner.pid, owner.start, owner.boot);
  const alive = verdict === "same" || verdict === "unknown";
  if (alive) provedAlive.set(key, Date.now());
  else provedAlive.delete(key);
  return alive;
}

/** When a process with this start identity began, in ms since the epoch (whole-second precision), or NaN. */
export function startedAtMs(start: string): number {
  const form = startForm(start);
  if (form === "epoch") return Number(start.slice(1)) * 1000;
  if (form === "ticks") return procBackend().ticksToMs(start) ?? Number.NaN;
  return Number.NaN;
}

/** Every pid right now. */
export function listPids(): number[] {
  return procBackend().listPids();
}

/** Every process's argv in one look (words of `ps -o args` where /proc is not read). */
export function commandLines(): { pid: number; argv: string[] }[] {
  return procBackend().commandLines();
}

/** The program a process runs (/proc/<pid>/exe), or "" when it cannot be read; a replaced binary keeps its path. */
export function processExe(pid: number): string {
  return procBackend().exe(pid);
}

/** The folder a process works in (/proc/<pid>/cwd, Linux only), or "" when it cannot be read. */
export function processCwd(pid: number): string {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return "";
  }
}

/** A process's argv, or [] when it cannot be read. */
export function processArgv(pid: number): string[] {
  return procBackend().argv(pid);
}

export { environMatcher, environReadable, processEnviron } from "./environ";
