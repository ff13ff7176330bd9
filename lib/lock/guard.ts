// A kernel-held guard around the lock file's check-and-set: the kernel lets
// one process hold it at a time and drops it when that process dies, so
// stale-lock takeover is serialized without a guard of its own ever going
// stale. Two guards keep that promise (docs/records.md, "The lock"):
// - `socket`: an abstract unix socket name (Linux only; the default there);
// - `flock`: flock(2) on a guard file beside the lock (everywhere else, or
//   SPEX_LOCK_GUARD=flock). Every process of one machine must use the same one.
import { flockGuard } from "./guard-flock";
import { socketGuard } from "./guard-socket";
import type { Guard, TryGuard } from "./guard-types";

export type { Guard } from "./guard-types";
export type GuardKind = "socket" | "flock";

export function guardKind(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): GuardKind {
  return platform === "linux" && env.SPEX_LOCK_GUARD !== "flock" ? "socket" : "flock";
}

let chosen: TryGuard | undefined;

/** Take the guard for lockPath, retrying while another process briefly holds it. */
export async function takeGuard(lockPath: string, deadline: number): Promise<Guard | undefined> {
  chosen ??= guardKind() === "socket" ? socketGuard : flockGuard;
  for (let attempt = 0; ; attempt++) {
    const guard = await chosen(lockPath);
    if (guard) return guard;
    if (Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, Math.min(1 + attempt, 10)));
  }
}
