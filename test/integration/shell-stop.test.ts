// Stopping a shell session ends its shell without waiting out the grace
// period: an interactive sh ignores TERM (bash and zsh too without spex's rc),
// so stop hangs the shell up first, as a closed terminal would. With a 20 s
// grace, "terminated" (not "killed") proves the shell went on its own.
import { afterEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { PLAIN_SHELL_COMMAND } from "../../lib/harness/shell";
import { SPEX_BIN, type Sandbox, sandbox } from "../support/sandbox";
import { installed, startShellSession, waitIdle } from "../support/shell-sessions";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

const KINDS = [
  { name: "a built-in plain sh", program: installed("sh"), command: PLAIN_SHELL_COMMAND },
  { name: "a command that ends in an interactive sh", program: installed("sh"), command: `sh -c 'exec sh' run` },
  // A shell named with an option is a plain command to spex: no rc, so no TERM trap of spex's.
  { name: "a bash -i without spex's rc", program: installed("bash"), command: "bash --norc -i -s" },
  { name: "a bash", program: installed("bash"), command: "bash" },
  { name: "a zsh", program: installed("zsh"), command: "zsh" },
  { name: "a fish", program: installed("fish"), command: "fish" },
];

for (const kind of KINDS) {
  const label = `stop of ${kind.name} session ends the shell within the grace period (terminated, not killed) and closes its tmux session`;
  if (!kind.program) {
    test.skip(`${label} (skipped: not installed here)`, () => {});
    continue;
  }
  test(label, () => {
    sb = sandbox();
    const s = startShellSession(sb, kind.command, "echo ready");
    waitIdle(sb, s);
    const r = sb.spex(["session", "stop", s.id, "--json"], { env: { SPEX_STOP_GRACE_MS: "20000" } });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ leaf: "terminated" });
    expect(sb.tmux(["has-session", "-t", `=${s.tmuxSession}`]).status).not.toBe(0);
  });
}

/** Run spex on a real terminal (stdout and stderr both the pty). */
function onTerminal(args: string[], env: Record<string, string>): { code: number | null; out: string } {
  const command = `exec '${SPEX_BIN}' ${args.map((a) => `'${a}'`).join(" ")}`;
  const r = spawnSync("script", ["-qec", command, "/dev/null"], { cwd: sb.repo, env: { ...sb.env, ...env }, encoding: "utf8", input: "" });
  return { code: r.status, out: r.stdout.replace(/\r\n/g, "\n") };
}

test.skipIf(!installed("script"))("on a terminal, stop and close say what they wait for (the grace period) once the agent does not end at once; --json and pipes never do", () => {
  sb = sandbox();
  // A command that ignores HUP and TERM: only KILL ends it, after the whole grace period.
  const stubborn = `sh -c 'trap "" HUP TERM; exec sleep 600' stubborn`;
  const grace = { SPEX_STOP_GRACE_MS: "1500" };
  const s = startShellSession(sb, stubborn, "work");
  const stop = onTerminal(["session", "stop", s.id], grace);
  expect(stop.code).toBe(0);
  expect(stop.out).toContain(`spex: waiting up to 1.5 s for session ${s.id.slice(0, 8)}`);
  expect(stop.out).toContain("to exit after HUP and TERM, then KILL");
  expect(stop.out).toContain("killed after the grace period");

  const closing = startShellSession(sb, stubborn, "more work");
  const close = onTerminal(["session", "close", closing.id, "--force"], grace);
  expect(close.code).toBe(0);
  expect(close.out).toContain(`spex: waiting up to 1.5 s for session ${closing.id.slice(0, 8)}`);

  const scripted = startShellSession(sb, stubborn, "scripted work");
  const json = onTerminal(["session", "stop", scripted.id, "--json"], grace);
  expect(json.out).not.toContain("waiting up to");
  expect(JSON.parse(json.out).leaf).toBe("killed");

  const piped = startShellSession(sb, stubborn, "piped work");
  const r = sb.spex(["session", "stop", piped.id], { env: grace });
  expect(r.code).toBe(0);
  expect(r.stderr).toBe("");
});
