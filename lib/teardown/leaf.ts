// The leaf-ownership guard (DESIGN.md §1.5): one probe (lib/proc probeLeaf)
// decides whether the recorded agent is gone, ours to signal, or something
// else now wearing its pid number, which we must never signal.
import { readFileSync } from "node:fs";
import { SpexError, errnoCode } from "../errors";
import { type LeafState, probeLeaf, processGroup } from "../proc";
import type { SessionRecord } from "../record";
import { sleepSync } from "../proc/sleep";

export interface Leaf {
  pid: number;
  start: string;
  /** Where the identity came from: the record, or agent.pid before readiness landed it. */
  source: "record" | "agent.pid" | "none";
}

/** Parse agent.pid ("<pid> <starttime>\n"); a torn file yields what it has. */
export function parseAgentPid(text: string): { pid: number; start: string } | undefined {
  const [pid, start] = text.trim().split(/\s+/);
  const n = Number(pid);
  if (!Number.isInteger(n) || n <= 0) return undefined;
  return { pid: n, start: start ?? "" };
}

export function readAgentPidFile(file: string): { pid: number; start: string } | undefined {
  try {
    return parseAgentPid(readFileSync(file, "utf8"));
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return undefined;
    throw e;
  }
}

/** The leaf to check: the record's pid, else the launch script's agent.pid. */
export function recordedLeaf(record: Pick<SessionRecord, "agent_pid" | "agent_start">, agentPidFile: string): Leaf {
  const pid = Number(record.agent_pid);
  if (record.agent_pid !== "" && Number.isInteger(pid) && pid > 0) return { pid, start: record.agent_start, source: "record" };
  const fromFile = readAgentPidFile(agentPidFile);
  if (fromFile) return { ...fromFile, source: "agent.pid" };
  return { pid: 0, start: "", source: "none" };
}

export function probe(leaf: Leaf): LeafState {
  return leaf.pid ? probeLeaf(leaf.pid, leaf.start) : "dead";
}

export function unprovableError(id: string, leaf: Leaf): SpexError {
  return new SpexError(
    "leaf_unprovable",
    `session ${id}: pid ${leaf.pid} (from ${leaf.source}) is alive but is not the process that was recorded (start ${leaf.start || "unknown"}); nothing was signalled`,
    {
      hint: "that pid now belongs to another process; check it with `ps -p " + leaf.pid + " -o pid,lstart,args` and stop the agent yourself if it is really this session's",
      details: { pid: leaf.pid, recordedStart: leaf.start, source: leaf.source },
    },
  );
}

export function graceMs(): number {
  const v = Number(process.env.SPEX_STOP_GRACE_MS);
  return Number.isFinite(v) && v >= 0 ? v : 3000;
}

type Proven = Pick<Leaf, "pid" | "start">;

/** What a stop is waiting for, told once the processes have not gone after a moment. */
export interface WaitNotice {
  pids: number[];
  /** The signals sent so far, in order. */
  signals: NodeJS.Signals[];
  graceMs: number;
}

export interface EndOptions {
  /** The session's harness: a shell is hung up before TERM (see endSignals). */
  harness?: string;
  onWait?: (notice: WaitNotice) => void;
}

// A stop that ends within this is not worth a line on the terminal.
const NOTICE_AFTER_MS = 200;

/**
 * The signals that ask a session's processes to end. An interactive shell
 * ignores TERM (sh always; bash and zsh unless spex's rc is theirs) but ends
 * on HUP, as when its terminal closes; TERM follows for any other command.
 */
export function endSignals(harness: string | undefined): NodeJS.Signals[] {
  return harness === "shell" ? ["SIGHUP", "SIGTERM"] : ["SIGTERM"];
}

/** Poll until every process is gone (dead, or its pid now names another process). */
function waitGone(procs: Proven[], ms: number, notice?: () => void): boolean {
  const start = Date.now();
  const deadline = start + ms;
  for (let i = 0; ; i++) {
    if (procs.every((p) => probeLeaf(p.pid, p.start) !== "owned")) return true;
    if (Date.now() >= deadline) return false;
    if (notice && Date.now() - start >= NOTICE_AFTER_MS) {
      notice();
      notice = undefined;
    }
    sleepSync(Math.min(5 + i * 5, 50));
  }
}

/** Ask with each signal in turn; false when the process was already gone. */
function ask(p: Proven, signals: NodeJS.Signals[]): boolean {
  let reached = false;
  for (const sig of signals) reached = signal(p, sig) || reached;
  return reached;
}

function graceWait(procs: Proven[], signals: NodeJS.Signals[], opts: EndOptions): boolean {
  const grace = graceMs();
  const notice = opts.onWait && (() => opts.onWait!({ pids: procs.map((p) => p.pid), signals, graceMs: grace }));
  return waitGone(procs, grace, notice);
}

/**
 * End processes proven by pid + start identity: TERM (HUP first for a shell),
 * one shared grace period, then KILL whoever is still the same process.
 * Returns the pids that were signalled. Nothing whose identity no longer
 * matches is ever signalled.
 */
export function endProven(procs: Proven[], opts: EndOptions = {}): number[] {
  const signals = endSignals(opts.harness);
  const signalled = procs.filter((p) => probeLeaf(p.pid, p.start) === "owned" && ask(p, signals));
  if (graceWait(signalled, signals, opts)) return signalled.map((p) => p.pid);
  const left = signalled.filter((p) => probeLeaf(p.pid, p.start) === "owned" && signal(p, "SIGKILL"));
  waitGone(left, 5000);
  return signalled.map((p) => p.pid);
}

export type LeafOutcome = "none" | "dead" | "terminated" | "killed";

/**
 * Stop a leaf we own: TERM (HUP first for a shell), a bounded wait, then KILL. Synchronous so it can
 * run inside a record mutation. Dead and absent leaves are left alone;
 * an unprovable one is refused before anything is signalled.
 */
export function stopLeaf(id: string, leaf: Leaf, opts: EndOptions = {}): LeafOutcome {
  const state = probe(leaf);
  if (state === "dead") return leaf.source === "none" ? "none" : "dead";
  if (state === "unprovable") throw unprovableError(id, leaf);
  const signals = endSignals(opts.harness);
  if (!ask(leaf, signals)) return "dead";
  if (graceWait([leaf], signals, opts)) return "terminated";
  // Re-prove identity right before the harder signal: the pid could have been reused meanwhile.
  if (probe(leaf) !== "owned" || !signal(leaf, "SIGKILL")) return "terminated";
  if (waitGone([leaf], 5000)) return "killed";
  throw new SpexError("leaf_survived", `session ${id}: pid ${leaf.pid} survived SIGKILL; nothing else was changed`, {
    hint: "the process may be stuck in the kernel (state D); check `ps -o pid,stat,wchan -p " + leaf.pid + "`",
    details: { pid: leaf.pid },
  });
}

/** True when the leaf leads its own process group (the pane's shell exec'd into it). */
function leadsGroup(pid: number): boolean {
  return processGroup(pid) === pid;
}

/**
 * Signal the proven leaf. When it leads its own process group the whole group
 * gets the signal: an agent whose UI runs in a child (Gemini) ends at once
 * instead of waiting out the grace period.
 */
function signal(leaf: Proven, sig: NodeJS.Signals): boolean {
  try {
    process.kill(leadsGroup(leaf.pid) ? -leaf.pid : leaf.pid, sig);
    return true;
  } catch (e) {
    if (errnoCode(e) === "ESRCH") return false;
    throw e;
  }
}
