// A full disk under SPEX_HOME (DESIGN.md §1.1, §3): a write that does not fit
// fails loudly and leaves every file as it was, and once space is freed the
// same verb works with no repair. The store lives on a small tmpfs this test
// mounts itself, which takes root; elsewhere the test is skipped.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Sandbox, sandbox } from "../support/sandbox";

function mountTmpfs(): { dir: string } | { why: string } {
  if (process.getuid?.() !== 0) return { why: "mounting a small tmpfs takes root" };
  const dir = mkdtempSync(join(tmpdir(), "spex-full-"));
  const r = spawnSync("mount", ["-t", "tmpfs", "-o", "size=2M", "tmpfs", dir], { encoding: "utf8" });
  if (r.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return { why: `mount -t tmpfs failed: ${(r.stderr || r.error?.message || "").trim()}` };
  }
  return { dir };
}

const mounted = mountTmpfs();
const mnt = "dir" in mounted ? mounted.dir : "";
if ("why" in mounted) console.warn(`full-disk tests skipped: ${mounted.why}`);

afterAll(() => {
  if (!mnt) return;
  spawnSync("umount", [mnt]);
  rmSync(mnt, { recursive: true, force: true });
});

const fill = () => join(mnt, "fill");
/** Bytes left free on the tmpfs, in pages: fewer than the write needs, so it is cut short part way. */
const ROOM = [4096, 8192, 12288, 16384, 20480, 24576];

/** Fill the tmpfs to the last byte, then give back `free` bytes: what is left is all a write may take. */
function fillLeaving(free: number): void {
  const fd = openSync(fill(), "w");
  const chunk = Buffer.alloc(64 * 1024);
  let size = 0;
  try {
    for (;;) size += writeSync(fd, chunk);
  } catch {
    // ENOSPC: full
  }
  ftruncateSync(fd, Math.max(0, size - free));
  closeSync(fd);
}

function freeSpace(): void {
  rmSync(fill(), { force: true });
}

/** Every file under the project's store with its bytes. */
function storeFiles(home: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path, `${rel}${e.name}/`);
      // Lock files come and go with each command; they hold no state. A queue's next number may
      // skip one a failed send took (never reused, so no message is ever written over).
      else if (!e.name.endsWith(".lock")) out[`${rel}${e.name}`] = e.name === "state.json" ? "" : readFileSync(path, "latin1");
    }
  };
  walk(join(home, "projects"), "");
  return out;
}

describe.skipIf(!mnt)("a full disk under SPEX_HOME", () => {
  let sb: Sandbox;
  let home: string;
  const spex = (args: string[]) => sb.spex(args, { env: { SPEX_HOME: home } });
  beforeEach(() => {
    sb = sandbox();
    home = join(mnt, "home");
    mkdirSync(home);
  });
  afterEach(() => {
    freeSpace();
    rmSync(home, { recursive: true, force: true });
    sb.cleanup();
  });

  function made(): string {
    const r = spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "a quiet session"]);
    if (r.code !== 0) throw new Error(`new: ${r.stderr}`);
    return JSON.parse(r.stdout).session_id;
  }

  test("a note that does not fit fails with ENOSPC and the record keeps its bytes; after space is freed the same note lands", () => {
    const id = made();
    const note = "n".repeat(16000);
    const before = storeFiles(home);
    // Room for one, two or three pages of a record that needs four (a lock file may take one):
    // the write is cut short, and what it wrote is never renamed over the record.
    for (const free of ROOM) {
      freeSpace();
      fillLeaving(free);
      const r = spex(["session", "park", "--session", id, "--note", note]);
      expect({ free, exit: r.code, code: r.stderr.match(/\[([a-z_]+)\]\n$/)?.[1], says: r.stderr.includes("no space left on device") }).toEqual({ free, exit: 1, code: "io_error", says: true });
      expect(storeFiles(home)).toEqual(before);
    }

    freeSpace();
    expect(spex(["session", "park", "--session", id, "--note", note]).code).toBe(0);
    const shown = JSON.parse(spex(["session", "show", id, "--json"]).stdout);
    expect({ lifecycle: shown.lifecycle, note: shown.note }).toEqual({ lifecycle: "parked", note });
  });

  test("a message that does not fit fails with ENOSPC and the timeline keeps its bytes: no torn line, no stray file", () => {
    const id = made();
    expect(spex(["session", "send", id, "a first message"]).code).toBe(0);
    const before = storeFiles(home);
    for (const free of ROOM) {
      freeSpace();
      fillLeaving(free);
      const r = spex(["session", "send", id, "m".repeat(8000)]);
      expect({ free, exit: r.code, says: r.stderr.includes("no space left on device") }).toEqual({ free, exit: 1, says: true });
      expect(storeFiles(home)).toEqual(before);
    }

    freeSpace();
    expect(spex(["session", "send", id, "m".repeat(8000)]).code).toBe(0);
    const timeline = storeFiles(home)[Object.keys(before).find((f) => f.endsWith("timeline.ndjson"))!]!;
    expect(timeline.split("\n").filter(Boolean).map((l) => JSON.parse(l).kind)).toEqual(["message_in", "message_in"]);
  });

  test("a lock file a full disk left empty is taken over by the next command once there is room: no lock_timeout, nothing to remove by hand", () => {
    const id = made();
    freeSpace();
    fillLeaving(0);
    const r = spex(["session", "park", "--session", id, "--note", "full"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("no space left on device");
    const locks = join(readdirSync(join(home, "projects")).map((k) => join(home, "projects", k))[0]!, "locks");
    const left = readdirSync(locks).filter((n) => n === `${id}.lock`);
    // The owner line did not fit: the lock file stands, empty (or cut short), naming no owner.
    expect(left).toEqual([`${id}.lock`]);
    for (const name of left) expect(readFileSync(join(locks, name), "utf8")).not.toEndWith("\n");
    freeSpace();
    const again = sb.spex(["session", "park", "--session", id, "--note", "room again"], { env: { SPEX_HOME: home, SPEX_LOCK_TIMEOUT_MS: "3000" } });
    expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: "" });
    expect(JSON.parse(spex(["session", "show", id, "--json"]).stdout).note).toBe("room again");
    expect(readdirSync(locks).filter((n) => n === `${id}.lock`)).toEqual([]);
  });
});
