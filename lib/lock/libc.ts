// The few libc calls the lock guards need, reached through bun:ffi in the
// compiled binary (neither Bun nor Node has flock, and Bun cannot bind the
// abstract socket name Node 20 binds). Undefined under Node, or wherever
// libc cannot be opened: each guard then takes its Node route.

export interface LibC {
  flock(fd: number, op: number): number;
  socket(domain: number, type: number, protocol: number): number;
  bind(fd: number, addr: Uint8Array, len: number): number;
  close(fd: number): number;
  /** errno of the last failed call, read right after it. */
  errno(): number;
}

/** The bun:ffi calls used here (typed locally: the Node bundler must not see the module). */
interface BunFfi {
  dlopen(name: string, symbols: Record<string, { args: string[]; returns: string }>): { symbols: Record<string, (...args: unknown[]) => number> };
  read: { i32(ptr: number, offset: number): number };
}

/** A require the Node bundler cannot follow (it would try to pack bun:ffi); only Bun ever calls it. */
const loadBuiltin = (id: string): unknown => require(id);

function open(): LibC | undefined {
  if (typeof Bun === "undefined") return undefined;
  let ffi: BunFfi;
  try {
    ffi = loadBuiltin("bun:ffi") as BunFfi;
  } catch {
    return undefined;
  }
  const darwin = process.platform === "darwin";
  const errnoSymbol = darwin ? "__error" : "__errno_location";
  const names = darwin ? ["/usr/lib/libSystem.B.dylib", "libc.dylib"] : ["libc.so.6", "libc.so.7", "libc.so"];
  for (const name of names) {
    try {
      const { symbols: s } = ffi.dlopen(name, {
        flock: { args: ["i32", "i32"], returns: "i32" },
        socket: { args: ["i32", "i32", "i32"], returns: "i32" },
        bind: { args: ["i32", "ptr", "u32"], returns: "i32" },
        close: { args: ["i32"], returns: "i32" },
        [errnoSymbol]: { args: [], returns: "ptr" },
      });
      const errnoAt = s[errnoSymbol]!;
      return {
        flock: (fd, op) => s.flock!(fd, op),
        socket: (domain, type, protocol) => s.socket!(domain, type, protocol),
        bind: (fd, addr, len) => s.bind!(fd, addr, len),
        close: (fd) => s.close!(fd),
        errno: () => ffi.read.i32(errnoAt(), 0),
      };
    } catch {
      // try the next name
    }
  }
  return undefined;
}

let loaded: LibC | null | undefined;

export function libc(): LibC | undefined {
  if (loaded === undefined) loaded = open() ?? null;
  return loaded ?? undefined;
}
