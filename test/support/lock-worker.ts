// A child process for the lock tests: the lock is about processes, so its
// contenders must be real ones. Modes:
//   increment <home> <mainRoot> <id> <n>   n read-modify-write increments of the counter kept in `note`
//   hold <lock> [<marker>]                  take the lock, print "held", release when stdin says so
//                                           (writing <marker> just before releasing)
//   take <lock> [<marker>]                  take the lock (SPEX_LOCK_TIMEOUT_MS applies), print one JSON line:
//                                           {"acquired":true,"markerSeen":…} or {"error":{code,…}}
//   contend <lock> <log> <rounds>           print "ready", wait for a line on stdin, then take and release the
//                                           lock <rounds> times, appending "enter <pid>" / "leave <pid>" to <log>
//                                           around each hold; prints "done"
//   guard <lock>                            take only the lock's guard, print "guarded", then wait (to be killed)
// Runs under Bun (bun test) and, bundled for Node, under plain node.
import { appendFileSync, existsSync, writeFileSync } from "node:fs";
import { acquireLock } from "../../lib/lock";
import { takeGuard } from "../../lib/lock/guard";
import { updateRecord } from "../../lib/record";
import { projectStore } from "../../lib/store";
import { SpexError } from "../../lib/errors";

async function increment(home: string, root: string, id: string, n: number): Promise<void> {
  const store = projectStore(root, home);
  for (let i = 0; i < n; i++) {
    await updateRecord(store, id, (r) => ({ ...r, note: String(Number(r.note || "0") + 1) }), { purpose: `increment ${i}` });
  }
}

async function hold(lock: string, marker: string | undefined): Promise<void> {
  const handle = await acquireLock(lock, { purpose: "held by lock-worker" });
  process.stdout.write(`held ${process.pid}\n`);
  // Wait for any line (or EOF) on stdin, then release.
  await new Promise<void>((resolve) => {
    process.stdin.once("data", () => resolve());
    process.stdin.once("end", () => resolve());
  });
  if (marker) writeFileSync(marker, "released\n");
  await handle.release();
  process.stdout.write("released\n");
  process.exit(0);
}

async function take(lock: string, marker: string | undefined): Promise<void> {
  process.stdout.write("trying\n");
  try {
    const handle = await acquireLock(lock, { purpose: "taken by lock-worker" });
    const markerSeen = marker ? existsSync(marker) : null;
    await handle.release();
    process.stdout.write(JSON.stringify({ acquired: true, markerSeen }) + "\n");
  } catch (e) {
    if (!(e instanceof SpexError)) throw e;
    process.stdout.write(JSON.stringify({ error: { code: e.code, message: e.message, ...e.details } }) + "\n");
  }
  process.exit(0);
}

async function contend(lock: string, log: string, rounds: number): Promise<void> {
  process.stdout.write("ready\n");
  await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
  for (let i = 0; i < rounds; i++) {
    const handle = await acquireLock(lock, { purpose: `contend ${i}` });
    appendFileSync(log, `enter ${process.pid}\n`);
    // Hold long enough that a second holder, if the lock let one in, would write between our two lines.
    await new Promise((r) => setTimeout(r, 3));
    appendFileSync(log, `leave ${process.pid}\n`);
    await handle.release();
  }
  process.stdout.write("done\n");
  process.exit(0);
}

async function guard(lock: string): Promise<void> {
  const held = await takeGuard(lock, Date.now() + 10000);
  if (!held) throw new Error("could not take the guard");
  process.stdout.write(`guarded ${process.pid}\n`);
  setInterval(() => {}, 1000); // stay alive, holding the guard, until killed
}

async function main(): Promise<void> {
  const [mode, ...args] = process.argv.slice(2);
  if (mode === "increment") return increment(args[0]!, args[1]!, args[2]!, Number(args[3]));
  if (mode === "hold") return hold(args[0]!, args[1]);
  if (mode === "take") return take(args[0]!, args[1]);
  if (mode === "contend") return contend(args[0]!, args[1]!, Number(args[2]));
  if (mode === "guard") return guard(args[0]!);
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack ?? e}\n`);
  process.exit(1);
});
