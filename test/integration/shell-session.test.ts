// Shell sessions come to rest (issue 12 item 7): a `shell`-harness session
// runs what it is sent, shows working while a command runs and idle at its
// prompt, `wait --idle` returns after each command, and `done --then stop`
// ends it. For bash, zsh and fish through spex's rc and their prompt hooks,
// and for a plain command through the pane's own processes.
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PLAIN_SHELL_COMMAND } from "../../lib/harness/shell";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { fileFrom, installed, row, screen, send, startShellSession, waitIdle } from "../support/shell-sessions";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

interface Kind {
  name: string;
  /** The program the launcher needs ("" when it is missing here). */
  program: string;
  command: string;
  /** Does the prompt run as the first command, or only reach the command as its last argument? */
  typed: boolean;
}

const KINDS: Kind[] = [
  { name: "bash", program: installed("bash"), command: "bash", typed: true },
  { name: "zsh", program: installed("zsh"), command: "zsh", typed: true },
  { name: "fish", program: installed("fish"), command: "fish", typed: true },
  // Like `sh -c 'make test; exec sh'`: a busy start, then a plain sh at its prompt.
  { name: "a plain command", program: installed("sh"), command: `sh -c 'sleep 1; printf "%s\\n" "$1" > first.txt; exec sh' run`, typed: false },
  // The built-in launcher on a machine without bash, zsh or fish: the prompt runs through eval, then sh stays.
  { name: "the built-in plain sh", program: installed("sh"), command: PLAIN_SHELL_COMMAND, typed: true },
];

for (const kind of KINDS) {
  const label = `${kind.name}: two sends run in turn, the session is idle between them and working while a command runs, and done --then stop ends it`;
  if (!kind.program) {
    test.skip(`${label} (skipped: ${kind.name} is not installed here)`, () => {});
    continue;
  }
  test(label, async () => {
    sb = sandbox();
    const s = startShellSession(sb, kind.command, "echo first > first.txt");
    // Rest from the prompt: wait --idle returns once the first command (or the plain command's own work) is done.
    waitIdle(sb, s);
    expect(await fileFrom(s, "first.txt")).toBe(kind.typed ? "first\n" : "echo first > first.txt\n");
    expect(row(sb, s.id)?.display).toBe("idle");

    // A command that takes a while: working while it runs, idle after.
    send(sb, s, "sleep 2; echo one > one.txt");
    await waitFor(() => row(sb, s.id)?.display === "working", "ls to show the session working during the sleep", 15000, 100);
    expect(existsSync(join(s.worktree, "one.txt"))).toBe(false);
    waitIdle(sb, s);
    expect(await fileFrom(s, "one.txt")).toBe("one\n");
    expect(row(sb, s.id)?.display).toBe("idle");

    send(sb, s, "echo two > two.txt");
    waitIdle(sb, s);
    expect(await fileFrom(s, "two.txt")).toBe("two\n");
    expect(row(sb, s.id)?.display).toBe("idle");

    // The user (or a script) in the session declares it done; the prompt coming back carries out --then stop.
    send(sb, s, "spex session done --propose nothing --then stop");
    await waitFor(() => row(sb, s.id)?.stopped === true, "done --then stop to stop the session", 20000, 100).catch((e) => {
      throw new Error(`${(e as Error).message}\n--- screen ---\n${screen(sb, s)}`);
    });
    await waitFor(() => sb.tmux(["has-session", "-t", `=${s.tmuxSession}`]).status !== 0, "the tmux session to end", 10000, 50);
    expect(row(sb, s.id)?.lifecycle).toBe("awaiting");
  });
}

test.skipIf(!installed("bash"))("a shell session runs its prompt at its first launch only: a --no-launch session at its first resume, a stopped one resumes without it", async () => {
  sb = sandbox();
  const made = sb.spex(["session", "new", "--launcher", "shell", "--no-launch", "--json", "--name", "later", "echo ran >> ran.txt"], { env: { SHELL: installed("bash") } });
  const created = JSON.parse(made.stdout);
  const s = { id: created.session_id, worktree: created.worktree_path, tmuxSession: created.tmux_session };
  const resume = () => {
    const r = sb.spex(["session", "resume", "later"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
  };
  resume();
  waitIdle(sb, s);
  expect(await fileFrom(s, "ran.txt")).toBe("ran\n");
  expect(sb.spex(["session", "stop", "later"]).code).toBe(0);
  resume();
  waitIdle(sb, s);
  // Back at a prompt, with the prompt not run again.
  send(sb, s, "echo again >> ran.txt");
  waitIdle(sb, s);
  expect(await fileFrom(s, "ran.txt")).toBe("ran\nagain\n");
});

test.skipIf(!installed("bash"))("a prompt too long to type into a shell is refused before anything is made", () => {
  sb = sandbox();
  const r = sb.spex(["session", "new", "--launcher", "shell", "--prompt-file", "-"], { input: `echo ${"x".repeat(9000)}`, env: { SHELL: installed("bash") } });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("[message_too_large]");
  expect(sb.git(["branch", "--list", "spex/*"])).toBe("");
  expect(existsSync(join(sb.repo, ".worktrees"))).toBe(false);
});

test("a dozen plain commands at rest are looked at once a second after a while of quiet; work sent to them all is seen in each and brings its quick looks back", async () => {
  sb = sandbox();
  const FLEET = 12;
  // Every `sleep` in the panes is logged with its session and length: a watcher's looks are its sleeps.
  const bin = join(sb.dir, "logged-bin");
  const log = join(sb.dir, "sleeps.log");
  mkdirSync(bin);
  writeFileSync(join(bin, "sleep"), `#!/bin/sh\nprintf '%s %s\\n' "\${SPEX_SESSION_ID:-}" "$1" >> '${log}'\nexec ${installed("sleep")} "$@"\n`, { mode: 0o755 });
  const looks = (id: string) =>
    (existsSync(log) ? readFileSync(log, "utf8").split("\n") : []).filter((l) => l.startsWith(`${id} `)).map((l) => l.slice(id.length + 1)).filter((l) => l === "0.3" || l === "1");
  const env = { PATH: `${bin}:${sb.env.PATH}`, SPEX_SHELL_WATCH_CALM_AFTER: "4" };
  const fleet = Array.from({ length: FLEET }, (_, i) =>
    startShellSession(sb, `sh -c 'printf "%s\\n" "$1" > first.txt; exec sh' run`, `at rest ${i}`, env, { sessions: { maxActive: FLEET } }),
  );
  for (const s of fleet) waitIdle(sb, s);
  // Quick looks first, then once a second, in every watcher.
  await waitFor(() => fleet.every((s) => looks(s.id).filter((l) => l === "1").length >= 2), "every watcher to look once a second", 60000, 200);
  const calm = new Map(fleet.map((s) => [s.id, looks(s.id)]));
  for (const s of fleet) {
    // The fourth quiet look in a row is the first followed by a second's wait.
    expect(calm.get(s.id)!.slice(0, 3)).toEqual(["0.3", "0.3", "0.3"]);
    expect(calm.get(s.id)!.slice(-2)).toEqual(["1", "1"]);
  }

  // Work for all of them: each calm watcher sees its command run (working in one listing), then the rest.
  for (const s of fleet) send(sb, s, "sleep 15; echo one > one.txt");
  const displays = () => {
    const rows = JSON.parse(sb.spex(["session", "ls", "--json"]).stdout) as { id: string; display: string }[];
    return fleet.map((s) => rows.find((r) => r.id === s.id)?.display);
  };
  await waitFor(() => displays().every((d) => d === "working"), "every session to show working during its sleep", 30000, 200);
  for (const s of fleet) waitIdle(sb, s, 60);
  for (const s of fleet) {
    expect(await fileFrom(s, "one.txt")).toBe("one\n");
    expect(looks(s.id).slice(calm.get(s.id)!.length)).toContain("0.3");
  }
  expect(displays()).toEqual(fleet.map(() => "idle"));
});
