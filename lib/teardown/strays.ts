// The processes of a session besides its agent leaf: what the agent started
// that left its process group and its tmux pane behind (Codex's app-server
// daemon runs in a session of its own and outlived `stop`; a `setsid` or
// `nohup` child does the same). A process is this session's when all hold:
// its start environment names this session (SPEX_SESSION_ID, exported by
// launch.sh and inherited by everything the agent starts) in this SPEX_HOME;
// it started after the record was created (a keyed id reused after a close
// does not inherit the earlier life's processes); and it is not infrastructure
// shared with other sessions: not a tmux server or client, not spex itself
// (hook runners and deliveries finish their own short work), not this
// process or one of its ancestors, and not a daemon that let go of the folder
// it started in (cwd `/`, as daemon(3) does): that is a user-wide service the
// session only happened to start first (gpg-agent autostarted by a signed
// commit, ssh-agent, dbus), which other sessions and the user go on using.
// Codex's app-server daemon keeps its starter's folder, so it still ends.
import { existsSync } from "node:fs";
import { basename } from "node:path";
import { ancestry, environMatcher, environReadable, listPids, processArgv, processCwd, processEnviron, processExe, processIdentity, startedAtMs } from "../proc";
import type { SessionRecord } from "../record";
import type { ProjectStore } from "../store";
import { type EndOptions, endProven } from "./leaf";
import { samePath } from "./paths";

export interface SessionProcess {
  pid: number;
  start: string;
}

// btime has whole-second precision: a process may read as started up to a second early.
const CLOCK_SLACK_MS = 2000;

export function sessionProcesses(store: ProjectStore, id: string, record: Pick<SessionRecord, "createdAt">): SessionProcess[] {
  // Start environments are read from /proc only: elsewhere this finds nothing (docs/teardown.md).
  if (!environReadable()) return [];
  const since = Date.parse(record.createdAt) - CLOCK_SLACK_MS;
  const skip = new Set(ancestry(process.pid));
  const selfExe = processExe(process.pid);
  // Under Node the program is `node` for every script: the bundle's path tells spex apart. In the
  // compiled binary argv[1] is a virtual path that exists only inside it (a long-lived `spex mcp`
  // would otherwise be taken for the session's own stray and ended).
  const script = process.argv[1];
  const virtual = !!script && (script.startsWith("/$bunfs/") || script.startsWith("B:/~BUN/"));
  const selfScript = script && !virtual && existsSync(script) ? script : undefined;
  const isSpex = (pid: number) => processExe(pid) === selfExe && (selfScript === undefined || processArgv(pid)[1] === selfScript);
  const namesSession = environMatcher("SPEX_SESSION_ID", id);
  const found: SessionProcess[] = [];
  for (const pid of listPids()) {
    // The cheap test first: one read of the environment, the rest only for the few that name this session.
    if (skip.has(pid) || !namesSession(pid)) continue;
    const identity = processIdentity(pid);
    if (!identity || (Number.isFinite(since) && startedAtMs(identity.start) < since)) continue;
    if (!samePath(processEnviron(pid)?.get("SPEX_HOME"), store.home)) continue;
    if (basename(processExe(pid)) === "tmux" || isSpex(pid) || processCwd(pid) === "/") continue;
    found.push({ pid, start: identity.start });
  }
  return found;
}

/** End every process proven to be this session's (see above); returns the pids signalled. */
export function endSessionProcesses(store: ProjectStore, id: string, record: Pick<SessionRecord, "createdAt">, opts: EndOptions = {}): number[] {
  return endProven(sessionProcesses(store, id, record), opts);
}
