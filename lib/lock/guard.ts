// A kernel-held guard around the lock file's check-and-set. An abstract unix
// socket name can be bound by one process at a time and is released by the
// kernel when that process dies, so stale-lock takeover is serialized without
// a guard of its own ever going stale.
import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { basename, dirname } from "node:path";

export interface Guard {
  release(): Promise<void>;
}

const realDirs = new Map<string, string>();

/**
 * The guard is named after the lock's real path, so writers that reach
 * SPEX_HOME through a symlink and through its real path share one guard.
 */
function guardName(lockPath: string): string {
  const dir = dirname(lockPath);
  let real = realDirs.get(dir);
  if (real === undefined) {
    try {
      real = realpathSync.native(dir);
      realDirs.set(dir, real);
    } catch {
      real = dir; // not made yet: nobody else can hold a lock in it through another spelling
    }
  }
  const digest = createHash("sha256").update(`${real}/${basename(lockPath)}`).digest("hex").slice(0, 48);
  return `\0spex-lock-guard-${digest}`;
}

type Bind = (name: string) => Promise<Guard | undefined>;

/** The compiled binary binds natively (no node:net to load: ~4 ms off every write). */
const bindWithBun: Bind = async (name) => {
  try {
    const listener = Bun.listen({ unix: name, socket: { data() {} } });
    return { release: async () => listener.stop(true) };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EADDRINUSE") return undefined;
    throw e;
  }
};

const bindWithNode: Bind = async (name) => {
  const net = await import("node:net");
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "EADDRINUSE") resolve(undefined);
      else reject(e);
    });
    server.listen({ path: name, exclusive: true }, () => {
      server.unref();
      resolve({ release: () => new Promise<void>((done) => server.close(() => done())) });
    });
  });
};

const bindOnce: Bind = typeof Bun !== "undefined" ? bindWithBun : bindWithNode;

/** Bind the guard for lockPath, retrying while another process briefly holds it. */
export async function takeGuard(lockPath: string, deadline: number): Promise<Guard | undefined> {
  const name = guardName(lockPath);
  for (let attempt = 0; ; attempt++) {
    const guard = await bindOnce(name);
    if (guard) return guard;
    if (Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, Math.min(1 + attempt, 10)));
  }
}
