// Processes found by one variable of their start environment (/proc/<pid>/environ),
// for tests that must prove nothing of a session is left running. The test
// watches through /proc whatever backend the binary under test uses
// (SPEX_PROC=ps in the portable pass): the observer is not what is tested.
import { linuxBackend } from "../../lib/proc/linux";
import { epochStart, startForm } from "../../lib/proc/identity";

function environ(pid: number): Map<string, string> | undefined {
  const bytes = linuxBackend.environ(pid);
  if (!bytes) return undefined;
  return new Map(
    bytes
      .toString("utf8")
      .split("\0")
      .filter((e) => e.indexOf("=") > 0)
      .map((e) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)]),
  );
}

export function processesWithEnv(name: string, value: string): number[] {
  // info() reads zombies as gone: only live processes count.
  return linuxBackend.listPids().filter((pid) => pid !== process.pid && environ(pid)?.get(name) === value && linuxBackend.info(pid) !== undefined);
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
  return Object.fromEntries(environ(pid) ?? []);
}

/** A start identity of the same form that names another process (a start `by` units later). */
export function anotherStart(start: string, by = 7): string {
  return startForm(start) === "epoch" ? epochStart(Number(start.slice(1)) + by) : String(Number(start) + by);
}

/** The portable backends are forced for this test pass (make test-portable). */
export const PORTABLE_PASS = process.env.SPEX_PROC === "ps";
