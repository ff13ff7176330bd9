// What systemd-logind will do to this user's processes at logout (issue 27
// item 1). Two facts decide it: the manager's KillUserProcesses (the login
// session's processes are killed when it ends) and the user's Linger (the
// user's own service manager, and everything started in it, outlives the last
// logout). Read with `loginctl`; a machine without it answers nothing.
import { childProcess } from "../proc/child-process";

export interface LogindFacts {
  killUserProcesses: boolean;
  linger: boolean;
}

/** `Key=value` lines as loginctl's show-* print them. */
function properties(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split("\n")) {
    const eq = line.indexOf("=");
    if (eq > 0) out.set(line.slice(0, eq).trim(), line.slice(eq + 1).trim());
  }
  return out;
}

/** The two facts from the manager's and the user's properties, or undefined when either is missing. */
export function parseLogind(manager: string, user: string): LogindFacts | undefined {
  const kill = properties(manager).get("KillUserProcesses");
  const linger = properties(user).get("Linger");
  if (kill === undefined || linger === undefined) return undefined;
  return { killUserProcesses: kill === "yes", linger: linger === "yes" };
}

function loginctl(args: string[]): string | undefined {
  try {
    const r = childProcess().spawnSync("loginctl", args, { encoding: "utf8", timeout: 3000, env: { ...process.env, SYSTEMD_PAGER: "", SYSTEMD_COLORS: "0" } });
    return r.status === 0 ? r.stdout : undefined;
  } catch {
    return undefined;
  }
}

/** This user's logind facts, or undefined without loginctl or a logind that answers. */
export function readLogind(uid = process.getuid?.() ?? -1): LogindFacts | undefined {
  if (uid < 0) return undefined;
  // show-user without a user shows the manager's properties; with one, that user's.
  const manager = loginctl(["show-user", "--property=KillUserProcesses"]);
  if (manager === undefined) return undefined;
  const user = loginctl(["show-user", String(uid), "--property=Linger"]);
  return user === undefined ? undefined : parseLogind(manager, user);
}

/** A logout ends the fleet: logind kills the login session's processes and nothing of the user outlives it. */
export function logoutKills(facts: LogindFacts | undefined): boolean {
  return facts !== undefined && facts.killUserProcesses && !facts.linger;
}
