// The Linux guard: an abstract unix socket name can be bound by one process at
// a time and is released by the kernel when that process dies.
import { realpathSync } from "node:fs";
import { basename, dirname } from "node:path";
import type { Guard, TryGuard } from "./guard-types";
import { type LibC, libc } from "./libc";
import { sha256Hex } from "../hash";

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
  const digest = sha256Hex(`${real}/${basename(lockPath)}`).slice(0, 48);
  return `\0spex-lock-guard-${digest}`;
}

type Bind = (name: string) => Promise<Guard | undefined>;

const AF_UNIX = 1;
const SOCK_STREAM = 1;
const SOCK_CLOEXEC = 0o2000000;
const EADDRINUSE = 98;
/** sa_family (2 bytes) + sun_path (108 bytes). */
const SOCKADDR_UN = 110;

/**
 * One name, two spellings: the kernel tells abstract names apart by length.
 * Bun (and Node on libuv ≥ 1.48, Node 22 on) binds exactly the name's bytes;
 * Node 20 (libuv 1.46) pads it with NULs to all 108 bytes of sun_path. The
 * compiled binary binds both, so it excludes either kind of Node process.
 */
function addresses(name: string): { addr: Uint8Array; len: number }[] {
  const bytes = Buffer.from(name, "latin1");
  const addr = new Uint8Array(SOCKADDR_UN);
  addr[0] = AF_UNIX; // sa_family_t, little-endian on every Linux ABI spex is built for
  addr.set(bytes, 2);
  return [
    { addr, len: 2 + bytes.length },
    { addr, len: SOCKADDR_UN },
  ];
}

/** The compiled binary: plain socket + bind through libc (bound is enough to own a name; no listener to start). */
function bindWithLibC(lib: LibC): Bind {
  return async (name) => {
    const fds: number[] = [];
    const closeAll = () => {
      for (const fd of fds) lib.close(fd);
    };
    for (const { addr, len } of addresses(name)) {
      const fd = lib.socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
      if (fd < 0) {
        const errno = lib.errno();
        closeAll();
        throw new Error(`socket(AF_UNIX) failed with errno ${errno}`);
      }
      fds.push(fd);
      if (lib.bind(fd, addr, len) !== 0) {
        const errno = lib.errno();
        closeAll();
        if (errno === EADDRINUSE) return undefined;
        throw new Error(`bind of the lock guard failed with errno ${errno}`);
      }
    }
    return { release: async () => closeAll() };
  };
}

/** Bun without libc (not expected): its own listener binds the exact spelling only. */
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

let bindOnce: Bind | undefined;

export const socketGuard: TryGuard = (lockPath) => {
  if (!bindOnce) {
    const lib = typeof Bun !== "undefined" ? libc() : undefined;
    bindOnce = lib ? bindWithLibC(lib) : typeof Bun !== "undefined" ? bindWithBun : bindWithNode;
  }
  return bindOnce(guardName(lockPath));
};
