// A SPEX_HOME on /proc (SPEX_HOME=/proc/self/x, or a HOME of /proc/self):
// Node's recursive mkdir retries forever there (mkdir answers ENOENT in a
// folder that exists), so the Node bundle hung on every command. spex refuses
// such a home at once (spex_home_unusable), from the bundle and the binary.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { SPEX_BIN, SPEX_CJS, type Sandbox, sandbox } from "../support/sandbox";

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

/** spex (the Node bundle or the binary) with a deadline: a hang ends as a failure, not as the test's timeout. */
function run(runner: "node" | "bin", args: string[], env: Record<string, string>) {
  const [cmd, pre] = runner === "node" ? ["node", [SPEX_CJS]] : [SPEX_BIN, []];
  const r = spawnSync(cmd, [...pre, ...args], { cwd: sb.repo, env: { ...sb.env, ...env }, encoding: "utf8", timeout: 15000, killSignal: "SIGKILL" });
  return { code: r.status, stderr: r.stderr ?? "" };
}

const commands = [["session", "ls"], ["session", "new", "--no-launch", "--launcher", "shell", "hi"], ["doctor"], ["machine", "add", "box", "me@box"]];

test.skipIf(!existsSync("/proc/self"))("a SPEX_HOME on /proc is refused at once (spex_home_unusable) by ls, new, doctor and machine add, from the Node bundle and the binary", () => {
  for (const runner of ["node", "bin"] as const) {
    for (const args of commands) {
      const r = run(runner, args, { SPEX_HOME: "/proc/self/spex" });
      expect({ runner, args, code: r.code }).toEqual({ runner, args, code: 1 });
      expect(r.stderr).toContain("[spex_home_unusable]");
    }
  }
  expect(sb.git(["branch", "--list"]).trim()).toBe("* main");
});

test.skipIf(!existsSync("/proc/self"))("a HOME of /proc/self with SPEX_HOME unset is refused the same way", () => {
  const r = run("node", ["session", "ls"], { SPEX_HOME: "", HOME: "/proc/self" });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("[spex_home_unusable]");
});
