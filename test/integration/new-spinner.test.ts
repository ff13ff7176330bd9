// Issue 28.3: a session whose agent is slow to start. On a terminal, stderr
// says what the launch waits for and for how long (a spinner, wiped when the
// wait ends); piped, nothing is added. The agent here is the user's own bash,
// slow because its ~/.bashrc is.
import { afterEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, SPEX_BIN, sandbox } from "../support/sandbox";
import { whichSync } from "../../lib/launch/launcher";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function slowShell(): Record<string, string> {
  sb = sandbox();
  writeFileSync(join(sb.env.HOME!, ".bashrc"), "sleep 2\n");
  return { SHELL: whichSync("bash")! };
}

/** stderr of a command run on a real terminal (a pty from script(1)) with stdout sent to a file. */
function stderrOnTerminal(args: string[], env: Record<string, string>): string {
  const command = `stty cols 160 rows 40; exec ${q(SPEX_BIN)} ${args.map(q).join(" ")} > ${q(join(sb.dir, "stdout"))}`;
  const r = spawnSync("script", ["-qec", command, "/dev/null"], { cwd: sb.repo, env: { ...sb.env, TERM: "xterm-256color", ...env }, encoding: "utf8", input: "" });
  expect(r.status).toBe(0);
  return r.stdout ?? "";
}

describe("a slow agent start", () => {
  test("on a terminal, stderr shows what is waited for and for how long, then wipes the line", () => {
    const env = slowShell();
    const err = stderrOnTerminal(["session", "new", "--launcher", "shell", "echo hi"], env);
    expect(err).toMatch(/[|/\\-] \d+ s of at most 30 s: waiting for the shell in tmux session echo-hi-\w{4} to show its first prompt/);
    // The last thing drawn is the wipe: the created line that follows on stdout stands alone.
    expect(err.endsWith("\r\u001b[K")).toBe(true);
  });

  test("piped, stderr stays empty", () => {
    const env = slowShell();
    const r = sb.spex(["session", "new", "--launcher", "shell", "echo hi"], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("(running)");
  });

  test("with --json on a terminal, nothing is drawn either", () => {
    const env = slowShell();
    expect(stderrOnTerminal(["session", "new", "--launcher", "shell", "--json", "echo hi"], env)).not.toContain("waiting for");
  });
});
