// A closed pipe is not an error (issue 21 item 13): `spex session show X | head -3`
// and any `--json` piped into a consumer that exits end quietly, as git does.
// The pipe here is closed before spex writes a byte (a FIFO whose only reader
// is gone), so every run meets the closed pipe on its first write: no timing.
import { afterEach, describe, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { closeSync, constants, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, SPEX_BIN, SPEX_CJS, sandbox } from "../support/sandbox";
import { seedRecord } from "../support/records";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

/** A write end whose reader has already gone: every write to it fails with EPIPE. */
function closedPipe(dir: string, name: string): number {
  const fifo = join(dir, name);
  const made = spawnSync("mkfifo", [fifo]);
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr}`);
  const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(fifo, constants.O_WRONLY);
  closeSync(reader);
  return writer;
}

function run(runner: "bin" | "node", args: string[], stdout: number | "pipe", stderr: number | "pipe" = "pipe") {
  const [cmd, argv] = runner === "bin" ? [SPEX_BIN, args] : ["node", [SPEX_CJS, ...args]];
  const r = spawnSync(cmd, argv, { cwd: sb.repo, env: sb.env, stdio: ["ignore", stdout, stderr], encoding: "utf8" });
  return { code: r.status, signal: r.signal, stderr: typeof r.stderr === "string" ? r.stderr : "" };
}

describe("a reader that goes away", () => {
  for (const runner of ["bin", "node"] as const) {
    test(`every verb ends quietly, exit 0, when its stdout is a closed pipe (${runner === "bin" ? "bin/spex" : "node dist/spex.cjs"})`, () => {
      sb = sandbox();
      const seeded = Array.from({ length: 30 }, (_, i) => seedRecord(sb.home, sb.repo, { prompt: `task number ${i} `.repeat(20), name: `task-${i}` }));
      const one = seeded[0]!.session_id.slice(0, 8);
      const verbs = [
        ["session", "show", one],
        ["session", "show", one, "--json"],
        ["session", "ls"],
        ["session", "ls", "--json"],
        ["task", "ls", "--json"],
        ["help"],
        ["session"],
        ["session", "new", "--help"],
        ["--version"],
        ["internal", "complete", "--", "session", "show", ""],
      ];
      for (let round = 0; round < 3; round++) {
        for (const args of verbs) {
          const out = closedPipe(sb.dir, `fifo-${runner}-${round}-${args.join("-").replace(/\W/g, "")}`);
          try {
            const r = run(runner, args, out);
            expect({ args, code: r.code, signal: r.signal, stderr: r.stderr }).toEqual({ args, code: 0, signal: null, stderr: "" });
          } finally {
            closeSync(out);
          }
        }
      }
    });
  }

  test("a closed stderr loses the message but not the exit code of a refusal", () => {
    sb = sandbox();
    for (const [args, code] of [[["session", "show", "nothing-here"], 1], [["sesion", "ls"], 2]] as const) {
      const err = closedPipe(sb.dir, `fifo-err-${args[0]}`);
      try {
        const r = run("bin", [...args], "pipe", err);
        expect({ args, code: r.code, signal: r.signal }).toEqual({ args, code, signal: null });
      } finally {
        closeSync(err);
      }
    }
  });
});

// The reader is slow and the descriptor non-blocking (a parent that set O_NONBLOCK on a shared pipe):
// a write takes what fits and the rest waits for room. Whatever one write left over must still arrive,
// in order, multibyte text included (lib/cli/stdio.ts writes text without encoding it first).
describe("a slow reader on a non-blocking pipe", () => {
  test("ls --json of 300 sessions arrives whole and in order", async () => {
    sb = sandbox();
    const names = Array.from({ length: 300 }, (_, i) => `tâche-${i}-ü-日本-🚀`);
    for (const [i, name] of names.entries()) seedRecord(sb.home, sb.repo, { prompt: `täsk ${i} `.repeat(30), name, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() });
    const fifo = join(sb.dir, "slow-reader");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    // A write end of our own until spex is done: the reader sees no end of file before spex opened its own.
    let ours: number | undefined = openSync(fifo, constants.O_WRONLY);
    // Bun's spawn hands a child its descriptors blocking: python opens the write end non-blocking and execs spex on it.
    const nonBlocking = "import os, sys; os.dup2(os.open(sys.argv[1], os.O_WRONLY | os.O_NONBLOCK), 1); os.execv(sys.argv[2], sys.argv[2:])";
    const child = spawn("python3", ["-c", nonBlocking, fifo, SPEX_BIN, "session", "ls", "--json"], { cwd: sb.repo, env: sb.env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    let exitCode: number | null | undefined;
    child.on("exit", (code) => (exitCode = code));
    // The listing (~400 KB) is more than the pipe holds (64 KB): spex's first write takes what fits, whatever the reader does.
    const chunks: Buffer[] = [];
    const buf = Buffer.alloc(1 << 16);
    for (;;) {
      let n: number;
      try {
        n = readSync(reader, buf, 0, buf.length, null);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EAGAIN") throw e;
        if (exitCode !== undefined && ours !== undefined) {
          closeSync(ours);
          ours = undefined;
        } else await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      if (n === 0) break; // spex has exited and every byte it wrote is read
      chunks.push(Buffer.from(buf.subarray(0, n)));
    }
    closeSync(reader);
    expect({ code: exitCode, stderr }).toEqual({ code: 0, stderr: "" });
    const text = Buffer.concat(chunks).toString("utf8");
    expect(text.endsWith("]\n")).toBe(true);
    const rows = JSON.parse(text) as Array<{ name: string }>;
    expect(rows.map((r) => r.name)).toEqual(names);
    expect(Buffer.byteLength(text)).toBeGreaterThan(4 << 16);
  });
});
