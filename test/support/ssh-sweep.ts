// Taking the ssh test machines down for good: every process that holds a TCP
// socket on a machine's port (its sshd listener and each connection it
// accepted, whoever their parent is now) with the commands those connections
// run, every ssh connection master whose control socket lives in the test's
// folder, and each machine's tmux server. Found by what they hold, not by
// parentage: a connection whose listener died first is a child of init, out
// of reach of a walk down the listener's tree.
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync, readlinkSync } from "node:fs";
import { type ProcessIdentity, listPids, parentPid, processIdentity } from "../../lib/proc";

export interface SweepTarget {
  /** The loopback ports the machines' sshd listen on. */
  ports: number[];
  /** Each machine's tmux server: its socket name and TMUX_TMPDIR. */
  tmux: Array<{ socket: string; tmpdir: string }>;
  /** Masters whose control socket lies under this folder are ours. */
  folder: string;
}

function read(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/** Pids holding a socket whose local end is one of `ports` on loopback: the listeners, and every connection they accepted. */
export function sshdOn(ports: number[]): { listeners: number[]; connections: number[] } {
  const wanted = new Set(ports);
  const listening = new Set<string>();
  const connected = new Set<string>();
  for (const line of read("/proc/net/tcp").split("\n").slice(1)) {
    // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
    const f = line.trim().split(/\s+/);
    if (f.length < 10 || f[9] === "0" || !f[1]!.startsWith("0100007F:")) continue;
    if (!wanted.has(parseInt(f[1]!.split(":")[1]!, 16))) continue;
    (f[3] === "0A" ? listening : connected).add(`socket:[${f[9]}]`);
  }
  const listeners: number[] = [];
  const connections: number[] = [];
  if (listening.size + connected.size === 0) return { listeners, connections };
  for (const pid of listPids()) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    const held = fds.map((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        return "";
      }
    });
    if (held.some((l) => listening.has(l))) listeners.push(pid);
    else if (held.some((l) => connected.has(l))) connections.push(pid);
  }
  return { listeners, connections };
}

/** ssh connection masters (titled `ssh: <control path> [mux]`) whose control socket is under `folder`. */
export function mastersUnder(folder: string): number[] {
  const prefix = `ssh: ${folder}/`;
  return listPids().filter((pid) => {
    const title = read(`/proc/${pid}/cmdline`).replace(/\0+$/, "").trimEnd();
    return title.startsWith(prefix) && title.endsWith("[mux]");
  });
}

/** Every process below `pid` (its children, theirs, …). */
export function descendantsOf(pid: number): number[] {
  const parents = new Map(listPids().map((p) => [p, parentPid(p)]));
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const p = queue.shift()!;
    for (const [child, parent] of parents) if (parent === p) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function signal(pids: number[], sig: NodeJS.Signals): ProcessIdentity[] {
  const hit: ProcessIdentity[] = [];
  for (const pid of pids) {
    const id = processIdentity(pid);
    try {
      process.kill(pid, sig);
      if (id) hit.push(id);
    } catch {
      // already gone
    }
  }
  return hit;
}

/**
 * Kill the sshd on `ports`: the listeners are frozen first so none forks a
 * connection the sweep would miss, then every connection with the commands it
 * runs, then the listeners. What was killed, to wait on with `allGone`.
 */
export function killSshd(ports: number[]): ProcessIdentity[] {
  signal(sshdOn(ports).listeners, "SIGSTOP");
  const { listeners, connections } = sshdOn(ports);
  const doomed = [...connections.flatMap((c) => [...descendantsOf(c), c]), ...listeners];
  return signal(doomed, "SIGKILL");
}

/** Everything of the fleet: masters, sshd (listeners, connections, their commands), tmux servers. */
export function sweep(target: SweepTarget): ProcessIdentity[] {
  const killed = [...signal(mastersUnder(target.folder), "SIGKILL"), ...killSshd(target.ports)];
  for (const t of target.tmux) spawnSync("tmux", ["-L", t.socket, "kill-server"], { env: { ...process.env, TMUX_TMPDIR: t.tmpdir }, stdio: "ignore" });
  return killed;
}

/** True once none of these processes lives (a pid now naming another process counts as gone). */
export function allGone(killed: ProcessIdentity[]): boolean {
  return killed.every((k) => processIdentity(k.pid)?.start !== k.start);
}
