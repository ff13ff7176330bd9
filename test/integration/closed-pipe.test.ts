// A closed pipe is not an error (issue 21 item 13): `spex session show X | head -3`
// and any `--json` piped into a consumer that exits end quietly, as git does.
// The pipe here is closed before spex writes a byte (a FIFO whose only reader
// is gone), so every run meets the closed pipe on its first write: no timing.
import { afterEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { closeSync, constants, openSync } from "node:fs";
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
