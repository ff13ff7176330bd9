// A child process for the lock tests: the lock is about processes, so its
// contenders must be real ones. Modes:
//   increment <home> <mainRoot> <id> <n>   n read-modify-write increments of the counter kept in `note`
//   hold <lock> [<marker>]                  take the lock, print "held", release when stdin says so
//                                           (writing <marker> just before releasing)
//   take <lock> [<marker>]                  take the lock (SPEX_LOCK_TIMEOUT_MS applies), print one JSON line:
//                                           {"acquired":true,"markerSeen":…} or {"error":{code,…}}
import { existsSync, writeFileSync } from "node:fs";
import { acquireLock } from "../../lib/lock";
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

async function main(): Promise<void> {
  const [mode, ...args] = process.argv.slice(2);
  if (mode === "increment") return increment(args[0]!, args[1]!, args[2]!, Number(args[3]));
  if (mode === "hold") return hold(args[0]!, args[1]);
  if (mode === "take") return take(args[0]!, args[1]);
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack ?? e}\n`);
  process.exit(1);
});
