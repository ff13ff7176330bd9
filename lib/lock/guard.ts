// A kernel-held guard around the lock file's check-and-set. An abstract unix
// socket name can be bound by one process at a time and is released by the
// kernel when that process dies, so stale-lock takeover is serialized without
// a guard of its own ever going stale.
import type { Server } from "node:net";
import { createHash } from "node:crypto";

export interface Guard {
  release(): Promise<void>;
}

function guardName(lockPath: string): string {
  const digest = createHash("sha256").update(lockPath).digest("hex").slice(0, 48);
  return `\0spex-lock-guard-${digest}`;
}

// Loaded on first use: commands that never lock do not pay for node:net at startup.
let netModule: typeof import("node:net") | undefined;

async function bindOnce(name: string): Promise<Server | undefined> {
  netModule ??= await import("node:net");
  const net = netModule;
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "EADDRINUSE") resolve(undefined);
      else reject(e);
    });
    server.listen({ path: name, exclusive: true }, () => resolve(server));
  });
}

/** Bind the guard for lockPath, retrying while another process briefly holds it. */
export async function takeGuard(lockPath: string, deadline: number): Promise<Guard | undefined> {
  const name = guardName(lockPath);
  for (let attempt = 0; ; attempt++) {
    const server = await bindOnce(name);
    if (server) {
      server.unref();
      return {
        release: () => new Promise<void>((resolve) => server.close(() => resolve())),
      };
    }
    if (Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, Math.min(1 + attempt, 10)));
  }
}
