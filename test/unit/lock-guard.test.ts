// The kernel guard under each kind (issue 18): contenders racing for a stale
// lock never both take it over, whichever runtime they run in (the compiled
// binary is Bun, dist/spex.cjs is Node), and a process killed while holding
// the guard never wedges the lock.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { type ChildProcess, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lockHolder } from "../../lib/lock";
import { guardKind } from "../../lib/lock/guard";
import { GUARDS, WORKER, type Worker, spawnWorker } from "../support/lock-workers";
import { waitFor } from "../support/sandbox";

let dir: string;
let nodeWorker: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "spex-guard-")));
  // The same worker bundled for plain node, as ncc bundles dist/spex.cjs: no Bun globals there.
  nodeWorker = join(dir, "lock-worker.cjs");
  const built = spawnSync(process.execPath, ["build", "--target=node", "--format=cjs", WORKER, "--outfile", nodeWorker], { encoding: "utf8" });
  if (built.status !== 0) throw new Error(`bundling the worker for node failed: ${built.stderr}`);
});
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function worker(runtime: "bun" | "node", args: string[], env: Record<string, string>): Worker {
  const w = spawnWorker(runtime === "bun" ? [process.execPath, WORKER] : ["node", nodeWorker], args, env, `lock-worker (${runtime})`);
  children.push(w.child);
  return w;
}

/** A lock left behind by a holder that was SIGKILLed while holding it. */
async function staleLock(lock: string, env: Record<string, string>): Promise<number> {
  const holder = worker("bun", ["hold", lock], env);
  const line = await waitFor(() => /held (\d+)/.exec(holder.out()) ?? undefined, "the holder to take the lock");
  holder.child.kill("SIGKILL");
  await holder.exited;
  return Number(line[1]);
}

/** Every "enter" is followed by the same pid's "leave" before anyone else enters. */
function overlaps(log: string): string[] {
  const bad: string[] = [];
  let inside: string | undefined;
  for (const line of log.trim().split("\n")) {
    const [what, pid] = line.split(" ");
    if (what === "enter") {
      if (inside !== undefined) bad.push(`${pid} entered while ${inside} held the lock`);
      inside = pid;
    } else if (inside !== pid) bad.push(`${pid} left while ${inside ?? "nobody"} held the lock`);
    else inside = undefined;
  }
  return bad;
}

describe("lock guards", () => {
  test("the guard is the abstract socket on Linux unless SPEX_LOCK_GUARD=flock, and flock everywhere else", () => {
    expect(guardKind({}, "linux")).toBe("socket");
    expect(guardKind({ SPEX_LOCK_GUARD: "flock" }, "linux")).toBe("flock");
    expect(guardKind({}, "darwin")).toBe("flock");
    expect(guardKind({ SPEX_LOCK_GUARD: "socket" }, "darwin")).toBe("flock");
  });

  for (const guard of GUARDS) {
    test(`${guard} guard: 12 contenders (Bun and Node) let go at once on a stale lock never hold it together, and every round is served`, async () => {
      const env = { SPEX_LOCK_GUARD: guard, SPEX_LOCK_TIMEOUT_MS: "60000" };
      const lock = join(dir, guard, "locks", "race.lock");
      const log = join(dir, guard, "holds.log");
      const dead = await staleLock(lock, env);
      expect(lockHolder(lock)).toBeUndefined(); // stale: its holder is gone
      expect(JSON.parse(readFileSync(lock, "utf8")).pid).toBe(dead);

      const rounds = 4;
      const contenders = Array.from({ length: 12 }, (_, i) => worker(i % 2 ? "node" : "bun", ["contend", lock, log, String(rounds)], env));
      await waitFor(() => contenders.every((w) => w.out().includes("ready")), "every contender to be ready", 30000);
      for (const w of contenders) w.child.stdin!.write("go\n");
      expect(await Promise.all(contenders.map((w) => w.exited))).toEqual(Array(12).fill(0));

      const holds = readFileSync(log, "utf8");
      expect(overlaps(holds)).toEqual([]);
      expect(holds.trim().split("\n").filter((l) => l.startsWith("enter")).length).toBe(12 * rounds);
      expect(existsSync(lock)).toBe(false); // the last holder released it
    }, 120000);
  }

  test("flock guard: while a process holds the guard nobody takes the lock; once it is SIGKILLed the lock is taken at once", async () => {
    const env = { SPEX_LOCK_GUARD: "flock" };
    const lock = join(dir, "killed", "locks", "a.lock");
    mkdirSync(join(dir, "killed", "locks"), { recursive: true });
    const holder = worker("node", ["guard", lock], env);
    await waitFor(() => holder.out().includes("guarded"), "the worker to hold the guard");
    const [guardFile] = readdirSync(join(dir, "killed", "locks")).filter((f) => f.startsWith(".guard-"));
    expect(guardFile).toBeDefined();

    const blocked = worker("bun", ["take", lock], { ...env, SPEX_LOCK_TIMEOUT_MS: "300" });
    expect(await blocked.exited).toBe(0);
    expect(JSON.parse(blocked.out().split("\n")[1]!).error.code).toBe("lock_timeout");

    holder.child.kill("SIGKILL");
    await holder.exited;
    const taker = worker("bun", ["take", lock], { ...env, SPEX_LOCK_TIMEOUT_MS: "2000" });
    expect(await taker.exited).toBe(0);
    expect(JSON.parse(taker.out().split("\n")[1]!)).toEqual({ acquired: true, markerSeen: null });
  }, 30000);

  test("a guard file planted as a symbolic link is never opened through: unsafe_path", async () => {
    const sub = join(dir, "planted", "locks");
    mkdirSync(sub, { recursive: true });
    const lock = join(sub, "p.lock");
    // Which of the guard files this lock uses is the worker's business: plant every one of them.
    for (let i = 0; i < 32; i++) spawnSync("ln", ["-s", join(dir, "victim"), join(sub, `.guard-${i.toString(16).padStart(2, "0")}`)]);
    const taker = worker("bun", ["take", lock], { SPEX_LOCK_GUARD: "flock", SPEX_LOCK_TIMEOUT_MS: "500" });
    expect(await taker.exited).toBe(0);
    expect(JSON.parse(taker.out().split("\n")[1]!).error.code).toBe("unsafe_path");
    expect(existsSync(join(dir, "victim"))).toBe(false);
  });
});
