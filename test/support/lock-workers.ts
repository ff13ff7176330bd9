// Real processes contending for the record lock (test/support/lock-worker.ts
// run as a child), for the lock and lock-guard tests.
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";

export const WORKER = join(__dirname, "lock-worker.ts");

// The guards a pass races: the abstract socket (Linux only) and flock. A pass
// that forces flock (make test-portable) races that one only; the socket
// already ran in the default pass.
export const GUARDS: readonly ("socket" | "flock")[] =
  process.env.SPEX_LOCK_GUARD === "flock" || process.platform !== "linux" ? ["flock"] : ["socket", "flock"];

export interface Worker {
  child: ChildProcess;
  out: () => string;
  exited: Promise<number | null>;
}

/** `command` (a runtime and the worker script) with `args`; what it wrote on stderr is shown when it fails, under `label`. */
export function spawnWorker(command: [string, string], args: string[], env: Record<string, string>, label: string): Worker {
  const child = spawn(command[0], [command[1], ...args], { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (err += d));
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      if (code !== 0 && err) process.stderr.write(`${label} ${args[0]}: ${err}\n`);
      resolve(code);
    }),
  );
  return { child, out: () => out, exited };
}
