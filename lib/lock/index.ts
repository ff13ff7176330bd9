// Cross-process record locks (DESIGN.md §1.4). The lock is a file naming its
// owner (pid + start time + boot id); any process may take it, a lock whose
// owner is provably gone is taken over, and the check-and-set on the file runs
// under a kernel guard so two contenders never both hold it.
import { closeSync, constants, mkdirSync, openSync, readFileSync, unlinkSync } from "node:fs";
import { dirname } from "node:path";
import { SpexError, errnoCode } from "../errors";
import { ownerAlive, selfIdentity } from "../proc";
import { takeGuard } from "./guard";
import { randomHex } from "../hash";
import { writeAll } from "../nofollow";

export interface LockOwner {
  pid: number;
  start: string;
  boot: string;
  nonce: string;
  purpose: string;
  acquiredAt: string;
}

export interface LockHandle {
  path: string;
  owner: LockOwner;
  release(): Promise<void>;
}

export interface LockOptions {
  timeoutMs?: number;
  purpose?: string;
}

export function defaultLockTimeoutMs(): number {
  const fromEnv = Number(process.env.SPEX_LOCK_TIMEOUT_MS);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 15000;
}

/** What the lock file said when read: its exact text (undefined: no file) and what that text means. */
type FileState = { text: string | undefined } & ({ kind: "free" } | { kind: "held"; owner: LockOwner } | { kind: "stale" });

function readLockText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return undefined;
    throw e;
  }
}

function readLockFile(path: string): FileState {
  const text = readLockText(path);
  if (text === undefined) return { text, kind: "free" };
  let owner: LockOwner;
  try {
    owner = JSON.parse(text) as LockOwner;
  } catch {
    // Torn: either its writer died mid-write, or it is writing right now (then the text will have changed under the guard).
    return { text, kind: "stale" };
  }
  if (typeof owner?.pid !== "number" || typeof owner.start !== "string" || typeof owner.boot !== "string") {
    return { text, kind: "stale" };
  }
  return ownerAlive(owner) ? { text, kind: "held", owner } : { text, kind: "stale" };
}

const OWNER_WRITE = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;

// No fsync: a lock file only matters while its owner lives; after a crash of
// the machine the boot id differs and the lock reads stale anyway. A lock file
// planted as a symlink is refused, never written through.
function writeOwner(path: string, owner: LockOwner): void {
  let fd: number;
  try {
    fd = openSync(path, OWNER_WRITE, 0o644);
  } catch (e) {
    if (errnoCode(e) !== "ELOOP") throw e;
    throw new SpexError("unsafe_path", `the lock file ${path} is a symbolic link; nothing was written through it`, {
      hint: "remove that link (spex makes lock files itself), then retry",
      details: { path },
    });
  }
  try {
    // Whole or an error: an owner cut short by a full disk would read as stale, and be taken over while held.
    writeAll(fd, JSON.stringify(owner) + "\n");
  } finally {
    closeSync(fd);
  }
}

/** Who holds the lock right now, if anyone (for diagnostics). */
export function lockHolder(path: string): LockOwner | undefined {
  const state = readLockFile(path);
  return state.kind === "held" ? state.owner : undefined;
}

export async function acquireLock(path: string, opts: LockOptions = {}): Promise<LockHandle> {
  const timeoutMs = opts.timeoutMs ?? defaultLockTimeoutMs();
  const deadline = Date.now() + timeoutMs;
  mkdirSync(dirname(path), { recursive: true });
  const self = selfIdentity();
  const owner: LockOwner = {
    pid: self.pid,
    start: self.start,
    boot: self.boot,
    nonce: randomHex(8),
    purpose: opts.purpose ?? "",
    acquiredAt: new Date().toISOString(),
  };
  let lastHolder: LockOwner | undefined;
  for (let attempt = 0; ; attempt++) {
    // Who holds it is judged outside the guard (a liveness probe may start a process: `ps`);
    // under the guard only "is the file still exactly what was judged free or stale" is asked.
    // A dead or replaced owner never comes back, so that judgement still holds.
    const seen = readLockFile(path);
    if (seen.kind === "held") lastHolder = seen.owner;
    else {
      const guard = await takeGuard(path, deadline);
      if (guard) {
        try {
          if (readLockText(path) === seen.text) {
            writeOwner(path, owner);
            return { path, owner, release: () => releaseLock(path, owner) };
          }
        } finally {
          await guard.release();
        }
      }
    }
    if (Date.now() > deadline) {
      const who = lastHolder
        ? `pid ${lastHolder.pid}${lastHolder.purpose ? ` (${lastHolder.purpose})` : ""} since ${lastHolder.acquiredAt}`
        : "another process";
      throw new SpexError("lock_timeout", `timed out after ${timeoutMs} ms waiting for ${path}, held by ${who}`, {
        hint: "wait for that process to finish, or stop it if it is stuck; a lock whose holder died is taken over automatically",
        details: { lock: path, holder: lastHolder ?? null },
      });
    }
    if (seen.kind === "held") await new Promise((r) => setTimeout(r, Math.min(2 + attempt * 2, 50)));
  }
}

async function releaseLock(path: string, owner: LockOwner): Promise<void> {
  const guard = await takeGuard(path, Date.now() + defaultLockTimeoutMs());
  try {
    let text = "";
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      if (errnoCode(e) === "ENOENT") return;
      throw e;
    }
    try {
      const current = JSON.parse(text) as LockOwner;
      if (current.nonce !== owner.nonce) return; // no longer ours: never remove another holder's lock
    } catch {
      return;
    }
    unlinkSync(path);
  } finally {
    await guard?.release();
  }
}

/** Run fn holding every lock in paths, taken in sorted order so multi-record steps never deadlock. */
export async function withLocks<T>(paths: string[], fn: () => Promise<T> | T, opts: LockOptions = {}): Promise<T> {
  const sorted = [...new Set(paths)].sort();
  const held: LockHandle[] = [];
  try {
    for (const p of sorted) held.push(await acquireLock(p, opts));
    return await fn();
  } finally {
    for (const h of held.reverse()) await h.release();
  }
}

export async function withLock<T>(path: string, fn: () => Promise<T> | T, opts: LockOptions = {}): Promise<T> {
  return withLocks([path], fn, opts);
}
