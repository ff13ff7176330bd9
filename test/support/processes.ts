// Processes found by one variable of their start environment (/proc/<pid>/environ),
// for tests that must prove nothing of a session is left running.
import { environMatcher, listPids, processEnviron, processIdentity } from "../../lib/proc";

export function processesWithEnv(name: string, value: string): number[] {
  const has = environMatcher(name, value);
  // processIdentity reads zombies as gone: only live processes count.
  return listPids().filter((pid) => pid !== process.pid && has(pid) && processIdentity(pid) !== undefined);
}

export function killProcessesWithEnv(name: string, value: string): void {
  for (const pid of processesWithEnv(name, value)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** A process's start environment, to start another process with exactly that environment. */
export function processEnvOf(pid: number): Record<string, string> {
  return Object.fromEntries(processEnviron(pid) ?? []);
}
