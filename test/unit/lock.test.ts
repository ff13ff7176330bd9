// The record lock across real processes (DESIGN.md §1.4): no lost updates,
// stale takeover after a SIGKILL or a reused pid, and a live holder is waited
// for, then named by lock_timeout.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { acquireLock, lockHolder, withLocks } from "../../lib/lock";
import { selfIdentity, startForm } from "../../lib/proc";
import { anotherStart } from "../support/processes";
import { emptyRecord, readRecordFile, writeRecordFile } from "../../lib/record";
import { projectStore, sessionPaths } from "../../lib/store";
import { SpexError } from "../../lib/errors";
import { GUARDS, WORKER, type Worker, spawnWorker } from "../support/lock-workers";
import { waitFor } from "../support/sandbox";

function worker(args: string[], env: Record<string, string> = {}): Worker {
  return spawnWorker([process.execPath, WORKER], args, env, "lock-worker");
}

let dir: string;
let children: ChildProcess[] = [];
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "spex-lock-")));
  children = [];
});
afterEach(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

function track(w: Worker): Worker {
  children.push(w.child);
  return w;
}

async function held(w: Worker): Promise<number> {
  const line = await waitFor(() => /held (\d+)/.exec(w.out()) ?? undefined, "the worker to hold the lock");
  return Number(line[1]);
}

describe("record lock", () => {
  // Issue 10 item 7: the guard was named after the path string, so the two spellings did not exclude each other.
  // Issue 18: the same promise under the portable guard (flock on a guard file) as under the abstract socket.
  for (const guard of GUARDS) test(`${guard} guard: 16 processes × 50 read-modify-write increments end at exactly 800, every intermediate record parseable, half of them reaching SPEX_HOME through a symlink`, async () => {
    const home = join(dir, "home");
    const homeLink = join(dir, "home-link");
    const root = join(dir, "repo");
    const id = "00000000-0000-4000-8000-000000000001";
    const store = projectStore(root, home);
    const file = sessionPaths(store, id).record;
    mkdirSync(sessionPaths(store, id).dir, { recursive: true });
    writeRecordFile(file, { ...emptyRecord(id), project_root: root, note: "0" });
    symlinkSync(home, homeLink);

    const workers = Array.from({ length: 16 }, (_, i) => track(worker(["increment", i % 2 ? homeLink : home, root, id, "50"], { SPEX_LOCK_TIMEOUT_MS: "60000", SPEX_LOCK_GUARD: guard })));
    let running = true;
    const all = Promise.all(workers.map((w) => w.exited)).finally(() => (running = false));
    let reads = 0;
    const bad: string[] = [];
    let last = 0;
    while (running) {
      const reading = readRecordFile(file, id);
      reads++;
      if (reading.kind !== "ok") bad.push(reading.kind === "corrupt" ? reading.error : "absent");
      else {
        const n = Number(reading.record.note);
        if (!(n >= last)) bad.push(`counter went back from ${last} to ${reading.record.note}`);
        last = n;
      }
      await new Promise((r) => setImmediate(r));
    }
    expect(await all).toEqual(Array(16).fill(0));
    expect(bad).toEqual([]);
    expect(reads).toBeGreaterThan(1);
    const final = readRecordFile(file, id);
    expect(final.kind === "ok" && final.record.note).toBe("800");
  }, 120000);

  test("a lock left by a SIGKILLed holder is taken over", async () => {
    const lock = join(dir, "locks", "a.lock");
    const holder = track(worker(["hold", lock]));
    const pid = await held(holder);
    expect(lockHolder(lock)?.pid).toBe(pid);
    holder.child.kill("SIGKILL");
    await holder.exited;
    expect(existsSync(lock)).toBe(true); // the dead holder never released it
    const handle = await acquireLock(lock, { timeoutMs: 2000 });
    expect(JSON.parse(readFileSync(lock, "utf8")).pid).toBe(process.pid);
    await handle.release();
    expect(existsSync(lock)).toBe(false);
  }, 30000);

  test("a lock naming a live pid with a different start time is stale (pid reuse)", async () => {
    const lock = join(dir, "locks", "b.lock");
    mkdirSync(join(dir, "locks"));
    const me = selfIdentity();
    // This process is alive, but the recorded start time is not ours: whoever took the lock is gone.
    writeFileSync(lock, JSON.stringify({ pid: me.pid, start: anotherStart(me.start, -1), boot: me.boot, nonce: "old", purpose: "a previous life", acquiredAt: "2020-01-01T00:00:00Z" }));
    expect(lockHolder(lock)).toBeUndefined();
    const handle = await acquireLock(lock, { timeoutMs: 500 });
    expect(JSON.parse(readFileSync(lock, "utf8")).nonce).toBe(handle.owner.nonce);
    await handle.release();
  });

  test("a lock naming a live pid from another boot is stale when its start counts from boot; an absolute start (ps) is judged by itself", async () => {
    const lock = join(dir, "locks", "c.lock");
    mkdirSync(join(dir, "locks"));
    const me = selfIdentity();
    writeFileSync(lock, JSON.stringify({ pid: me.pid, start: me.start, boot: "another-boot", nonce: "old", purpose: "", acquiredAt: "" }));
    if (startForm(me.start) === "ticks") {
      const handle = await acquireLock(lock, { timeoutMs: 500 });
      await handle.release();
    } else {
      // Seconds since the epoch name this process whatever boot is written beside them.
      expect(startForm(me.start)).toBe("epoch");
      expect(lockHolder(lock)?.nonce).toBe("old");
    }
  });

  test("a live matching owner is waited for: the contender gets the lock only after the holder releases", async () => {
    const lock = join(dir, "locks", "d.lock");
    const marker = join(dir, "released");
    const holder = track(worker(["hold", lock, marker]));
    await held(holder);
    const contender = track(worker(["take", lock, marker], { SPEX_LOCK_TIMEOUT_MS: "30000" }));
    await waitFor(() => contender.out().includes("trying"), "the contender to start");
    expect(contender.out()).not.toContain("acquired");
    holder.child.stdin!.write("release\n");
    expect(await holder.exited).toBe(0);
    expect(await contender.exited).toBe(0);
    const result = JSON.parse(contender.out().split("\n")[1]!);
    expect(result).toEqual({ acquired: true, markerSeen: true });
  }, 30000);

  test("a live matching owner that never releases ends in lock_timeout naming it", async () => {
    const lock = join(dir, "locks", "e.lock");
    const holder = track(worker(["hold", lock]));
    const pid = await held(holder);
    const contender = track(worker(["take", lock], { SPEX_LOCK_TIMEOUT_MS: "300" }));
    expect(await contender.exited).toBe(0);
    const result = JSON.parse(contender.out().split("\n")[1]!);
    expect(result.error.code).toBe("lock_timeout");
    expect(result.error.message).toContain(`pid ${pid}`);
    expect(result.error.message).toContain("held by lock-worker");
    expect(result.error.holder.pid).toBe(pid);
    // The holder still has it: a timeout never breaks a live lock.
    expect(lockHolder(lock)?.pid).toBe(pid);
  }, 30000);

  test("the holder's own later acquire waits too: a lock is not re-entrant across handles", async () => {
    const lock = join(dir, "locks", "f.lock");
    const first = await acquireLock(lock);
    const err = await acquireLock(lock, { timeoutMs: 100 }).catch((e) => e);
    expect(err).toBeInstanceOf(SpexError);
    expect((err as SpexError).code).toBe("lock_timeout");
    await first.release();
  });

  test("multi-record locks are taken in sorted order and released when one times out", async () => {
    const a = join(dir, "locks", "a.lock");
    const b = join(dir, "locks", "b.lock");
    const holder = track(worker(["hold", a]));
    await held(holder);
    // Asked for b then a, the sorted order tries a first: b is never taken while a waits.
    const err = await withLocks([b, a], () => "ran", { timeoutMs: 200 }).catch((e) => e);
    expect((err as SpexError).code).toBe("lock_timeout");
    expect(existsSync(b)).toBe(false);
    holder.child.stdin!.write("release\n");
    await holder.exited;
    expect(await withLocks([b, a], () => "ran", { timeoutMs: 2000 })).toBe("ran");
    expect(existsSync(a) || existsSync(b)).toBe(false);
  }, 30000);

  test("release never removes a lock another holder has since taken", async () => {
    const lock = join(dir, "locks", "g.lock");
    const mine = await acquireLock(lock);
    // Someone broke our lock (we looked dead to them) and took it.
    const me = selfIdentity();
    const theirs = { pid: me.pid, start: me.start, boot: me.boot, nonce: "theirs", purpose: "", acquiredAt: "" };
    writeFileSync(lock, JSON.stringify(theirs));
    await mine.release();
    expect(JSON.parse(readFileSync(lock, "utf8")).nonce).toBe("theirs");
  });

  test("a lock file planted as a symlink is never written through: unsafe_path, the target unchanged", async () => {
    const lock = join(dir, "locks", "h.lock");
    const target = join(dir, "victim.txt");
    mkdirSync(join(dir, "locks"));
    writeFileSync(target, "not a lock\n");
    symlinkSync(target, lock);
    const err = await acquireLock(lock, { timeoutMs: 500 }).catch((e) => e);
    expect((err as SpexError).code).toBe("unsafe_path");
    expect(readFileSync(target, "utf8")).toBe("not a lock\n");
  });
});
