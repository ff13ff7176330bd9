// flock(2) without a native module. Neither Node nor Bun has it in their
// standard library, so one of three ways takes the same kernel lock:
// - Bun (the compiled binary): libc's flock through bun:ffi;
// - Node on macOS and the BSDs: open(2) with O_EXLOCK | O_NONBLOCK;
// - Node on Linux: util-linux flock(1) run on a descriptor it inherits from
//   us; the lock belongs to the open file, which stays ours after it exits.
// All three are flock locks on the same file, so they exclude each other, and
// each is released when our descriptor closes or this process dies.
import { childProcess } from "../proc/child-process";
import { closeSync, constants, openSync } from "node:fs";
import { SpexError, errnoCode } from "../errors";
import { type LibC, libc } from "./libc";

/** Try to lock `file` exclusively without waiting: the open descriptor holding it, or undefined while another holds it. */
export type TryFlock = (file: string) => number | undefined;

const OPEN = constants.O_RDONLY | constants.O_CREAT | constants.O_NOFOLLOW;
const LOCK_EX = 2;
const LOCK_NB = 4;

function unavailable(why: string): SpexError {
  return new SpexError("lock_guard_unavailable", `the flock lock guard cannot run here: ${why}`, {
    hint: "run the compiled spex binary, or on Linux install util-linux (flock) or unset SPEX_LOCK_GUARD",
    details: { guard: "flock" },
  });
}

export function openGuardFile(file: string, extra = 0): number {
  try {
    return openSync(file, OPEN | extra, 0o600);
  } catch (e) {
    if (errnoCode(e) !== "ELOOP") throw e;
    throw new SpexError("unsafe_path", `the lock guard file ${file} is a symbolic link; nothing was opened through it`, {
      hint: "remove that link (spex makes guard files itself), then retry",
      details: { path: file },
    });
  }
}

function ffiFlock(lib: LibC): TryFlock {
  const EWOULDBLOCK = process.platform === "linux" ? 11 : 35;
  const EINTR = 4;
  return (file) => {
    const fd = openGuardFile(file);
    for (;;) {
      if (lib.flock(fd, LOCK_EX | LOCK_NB) === 0) return fd;
      const errno = lib.errno();
      if (errno === EINTR) continue;
      closeSync(fd);
      if (errno === EWOULDBLOCK) return undefined;
      throw unavailable(`flock(2) on ${file} failed with errno ${errno}`);
    }
  };
}

/** macOS and the BSDs: O_EXLOCK (0x20 on both) takes the flock as the file opens. */
const exlockFlock: TryFlock = (file) => {
  const O_EXLOCK = (constants as Record<string, number>).O_EXLOCK ?? 0x20;
  try {
    return openGuardFile(file, O_EXLOCK | constants.O_NONBLOCK);
  } catch (e) {
    const code = errnoCode(e);
    if (code === "EAGAIN" || code === "EWOULDBLOCK") return undefined;
    throw e;
  }
};

/** Exit status util-linux flock(1) gives a busy lock here (-E). */
const BUSY = 75;

const commandFlock: TryFlock = (file) => {
  const fd = openGuardFile(file);
  const r = childProcess().spawnSync("flock", ["-x", "-n", "-E", String(BUSY), "3"], { stdio: ["ignore", "ignore", "pipe", fd] });
  if (r.status === 0) return fd;
  closeSync(fd);
  if (r.status === BUSY) return undefined;
  if (r.error) throw unavailable(`flock(1) could not be run (${errnoCode(r.error) ?? r.error.message})`);
  throw unavailable(`flock(1) failed: ${String(r.stderr ?? "").trim() || `exit ${r.status}`}`);
};

let chosen: TryFlock | undefined;

/** The way this process takes flock locks (chosen once). */
export function tryFlock(): TryFlock {
  if (!chosen) {
    const lib = libc();
    chosen = lib ? ffiFlock(lib) : process.platform === "linux" ? commandFlock : exlockFlock;
  }
  return chosen;
}
