// A process's start environment: Linux only (/proc/<pid>/environ). Where it
// cannot be read every answer is "nothing": no variables, no match, so a scan
// for a session's leftover processes finds none instead of failing.
import { procBackend } from "./select";

/**
 * The environment a process started with, or undefined when it cannot be
 * read (gone, another user's, or not Linux). Later setenv calls inside the
 * process do not show here: this is what it inherited.
 */
export function processEnviron(pid: number): Map<string, string> | undefined {
  const bytes = procBackend().environ(pid);
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
  const backend = procBackend();
  return (pid) => {
    const bytes = backend.environ(pid);
    return !!bytes && (bytes.subarray(0, entry.length).equals(entry) || bytes.includes(inner));
  };
}

/** Can start environments be read here at all? */
export function environReadable(): boolean {
  return procBackend().environ(process.pid) !== undefined;
}
