// How spex's tmux server is started so the fleet outlives the terminal and the
// login (issue 27 item 1). Only the server's first start matters: every later
// `new-session` is a client of it.
//
// - A systemd user manager is reachable: the starting tmux client runs in a
//   transient scope of its own (`systemd-run --user --scope`), so the server it
//   forks is in that scope's cgroup, not the login session's, and logind's
//   KillUserProcesses does not reach it. The user manager itself stops at the
//   last logout unless the user lingers, taking its scopes along: where logind
//   kills nothing (KillUserProcesses=no) and the user does not linger, the
//   login session is the safer home and the scope is not used.
// - Otherwise the client starts in a process session of its own (`setsid`),
//   away from the terminal's session and process group (tmux's server also
//   detaches itself; this keeps the start the same on every path).
import { accessSync, constants, existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { type LogindFacts, readLogind } from "./logind";

export interface ServerStartFacts {
  /** `systemd-run` on PATH and a user manager listening ($XDG_RUNTIME_DIR/systemd/private). */
  systemdRun: string | undefined;
  /** logind's answer, asked only when systemd-run could be used. */
  logind: LogindFacts | undefined;
  /** `setsid` on PATH (util-linux), or undefined (macOS, the BSDs). */
  setsid: string | undefined;
}

export type ServerStartPlan =
  | { kind: "scope"; unit: string; prefix: string[] }
  | { kind: "setsid"; prefix: string[] }
  | { kind: "plain"; prefix: [] };

/**
 * A unit name for the scope of a socket's server: `spex-tmux-<socket>-<nonce>`,
 * with anything a unit name cannot hold written as `_`. The nonce keeps two
 * spex processes starting the same server at once from colliding on the name
 * (tmux lets one of them start it; the other's scope holds only a client that
 * exits, and --collect removes it).
 */
export function scopeUnitName(socket: string, nonce: string): string {
  const safe = (socket || "default").replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 64);
  return `spex-tmux-${safe}-${nonce}.scope`;
}

/** Whether the scope helps: it does unless logind kills nothing and the user manager would stop at logout. */
export function scopeHelps(logind: LogindFacts | undefined): boolean {
  if (!logind) return true;
  return logind.linger || logind.killUserProcesses;
}

/** The words put before `tmux …` when this start may start the server (pure: the facts are given). */
export function planServerStart(facts: ServerStartFacts, socket: string, nonce: string): ServerStartPlan {
  if (facts.systemdRun && scopeHelps(facts.logind)) {
    const unit = scopeUnitName(socket, nonce);
    return { kind: "scope", unit, prefix: [facts.systemdRun, "--user", "--scope", "--quiet", "--collect", `--unit=${unit}`, "--"] };
  }
  if (facts.setsid) return { kind: "setsid", prefix: [facts.setsid, "--wait"] };
  return { kind: "plain", prefix: [] };
}

function onPath(program: string, path = process.env.PATH ?? ""): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** A user manager is reachable: its private socket exists under XDG_RUNTIME_DIR. */
export function userManagerReachable(env: NodeJS.ProcessEnv = process.env): boolean {
  const runtime = env.XDG_RUNTIME_DIR;
  return !!runtime && existsSync(join(runtime, "systemd", "private"));
}

/** The facts of this machine, read when a server is about to be started. */
export function serverStartFacts(env: NodeJS.ProcessEnv = process.env): ServerStartFacts {
  const systemdRun = userManagerReachable(env) ? onPath("systemd-run", env.PATH) : undefined;
  return {
    systemdRun,
    logind: systemdRun ? readLogind() : undefined,
    setsid: onPath("setsid", env.PATH),
  };
}
