// The fleet's tmux server outlives the terminal and the login (issue 27 item 1):
// with a systemd user manager its first start runs in a scope of its own
// (seen through a systemd-run on PATH that records its argv and runs the
// rest), otherwise in a process session of its own; doctor warns when a
// logout would end it.
import { afterEach, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { userInfo } from "node:os";
import { SPEX_BIN, type Sandbox, sandbox, waitFor } from "../support/sandbox";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

function tool(s: Sandbox, name: string, body: string): string {
  const dir = join(s.dir, "fake-bin");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return dir;
}

/** A launcher whose agent stays up. */
function sleeper(s: Sandbox): void {
  writeFileSync(join(s.repo, "spexcode.local.json"), JSON.stringify({ launchers: { sleeper: { harness: "shell", command: "sh -c 'exec sleep 600' sleeper" } } }));
}

/** A user manager's socket where systemd would put it. */
function userManager(s: Sandbox): string {
  const runtime = join(s.dir, "run");
  mkdirSync(join(runtime, "systemd"), { recursive: true });
  writeFileSync(join(runtime, "systemd", "private"), "");
  return runtime;
}

function create(s: Sandbox, prompt: string, env: Record<string, string>): { session_id: string; ready: boolean } {
  const r = s.spex(["session", "new", "--launcher", "sleeper", "--json", prompt], { env });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

/** Field `n` (1-based, after the command name) of /proc/<pid>/stat. */
function statField(pid: number, n: number): number {
  const text = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(text.slice(text.lastIndexOf(")") + 2).split(" ")[n - 3]);
}

function serverPid(s: Sandbox): number {
  return Number(s.tmux(["display-message", "-p", "#{pid}"]).stdout.trim());
}

describe("the tmux server's first start", () => {
  test("with a user manager it runs in a scope of its own (systemd-run --user --scope …); later sessions only join it", () => {
    sb = sandbox();
    sleeper(sb);
    const log = join(sb.dir, "systemd-run.log");
    // Records one call per line (its words separated by |), then runs what follows `--`, as systemd-run --scope does.
    tool(sb, "systemd-run", `(IFS='|'; printf '%s\\n' "$*") >> '${log}'\nwhile [ $# -gt 0 ]; do if [ "$1" = -- ]; then shift; break; fi; shift; done\nexec "$@"`);
    const bin = tool(sb, "loginctl", `case "$*" in *KillUserProcesses*) echo KillUserProcesses=yes ;; *) echo Linger=yes ;; esac`);
    const env = { PATH: `${bin}:${process.env.PATH}`, XDG_RUNTIME_DIR: userManager(sb) };

    const first = create(sb, "first of the fleet", env);
    expect(first.ready).toBe(true);
    const calls = readFileSync(log, "utf8").trim().split("\n");
    expect(calls).toHaveLength(1);
    const words = calls[0]!.split("|");
    expect(words.slice(0, 4)).toEqual(["--user", "--scope", "--quiet", "--collect"]);
    expect(words[4]).toMatch(new RegExp(`^--unit=spex-tmux-${sb.tmuxSocket}-[0-9a-f]{6}\\.scope$`));
    expect(words.slice(5, 10)).toEqual(["--", "tmux", "-u", "-L", sb.tmuxSocket]);
    expect(words).toContain("new-session");

    // The server runs now: the next session is a client call, not another scope.
    create(sb, "second of the fleet", env);
    expect(readFileSync(log, "utf8").trim().split("\n")).toHaveLength(1);
    const rows = JSON.parse(sb.spex(["session", "ls", "--json"]).stdout);
    expect(rows.map((r: any) => r.liveness)).toEqual(["online", "online"]);
  }, 60000);

  test("a systemd-run that cannot reach the user bus does not stop the launch: tmux starts as before", () => {
    sb = sandbox();
    sleeper(sb);
    const bin = tool(sb, "systemd-run", `echo "Failed to connect to bus: No such file or directory" >&2\nexit 1`);
    const env = { PATH: `${bin}:${process.env.PATH}`, XDG_RUNTIME_DIR: userManager(sb) };
    const made = create(sb, "starts anyway", env);
    expect(made.ready).toBe(true);
    expect(JSON.parse(sb.spex(["session", "ls", "--json"]).stdout)[0].liveness).toBe("online");
  }, 60000);

  test("without a user manager the server runs in a session of its own: killing the caller's session leaves the fleet running", async () => {
    sb = sandbox();
    sleeper(sb);
    const out = join(sb.dir, "created.json");
    // The caller: a shell leading its own session and process group (a terminal's login shell), which runs `new`, then waits.
    const caller = spawn("sh", ["-c", `"$0" session new --launcher sleeper --json 'outlives its terminal' > '${out}.tmp' && mv '${out}.tmp' '${out}'; exec sleep 600`, SPEX_BIN], {
      cwd: sb.repo,
      env: { ...sb.env, XDG_RUNTIME_DIR: "" },
      detached: true,
      stdio: "ignore",
    });
    const callerPid = caller.pid!;
    const exited = new Promise((r) => caller.on("exit", r));
    await waitFor(() => existsSync(out), "the session made by the caller", 60000);
    const id = JSON.parse(readFileSync(out, "utf8")).session_id;
    const server = serverPid(sb);
    expect(statField(callerPid, 6)).toBe(callerPid);
    expect(statField(server, 6)).not.toBe(callerPid);
    expect(statField(server, 5)).not.toBe(callerPid);

    // The terminal goes away: its whole session is hung up and killed.
    process.kill(-callerPid, "SIGHUP");
    process.kill(-callerPid, "SIGKILL");
    await exited;
    expect(serverPid(sb)).toBe(server);
    const row = JSON.parse(sb.spex(["session", "ls", id, "--json"]).stdout)[0];
    expect(row.liveness).toBe("online");
  }, 60000);
});

describe("doctor and the logout", () => {
  const me = userInfo().username;

  test("logind that kills at logout, with no lingering: a warning and the quoted command that keeps the fleet", () => {
    sb = sandbox();
    const bin = tool(sb, "loginctl", `case "$*" in *KillUserProcesses*) echo KillUserProcesses=yes ;; *) echo Linger=no ;; esac`);
    const r = sb.spex(["doctor", "--json"], { env: { PATH: `${bin}:${process.env.PATH}` } });
    const check = JSON.parse(r.stdout).checks.find((c: any) => c.name === "survives logout");
    expect(check).toMatchObject({ ok: false, required: false, code: "logout_kills_fleet" });
    expect(check.detail).toContain(`loginctl enable-linger '${me.replace(/'/g, `'\\''`)}'`);
    // A warning, not a failure of the machine.
    expect(r.code).toBe(0);
    const human = sb.spex(["doctor"], { env: { PATH: `${bin}:${process.env.PATH}` } }).stdout;
    expect(human).toContain("loginctl enable-linger");
  });

  test("a lingering user, or no logind at all: no warning", () => {
    sb = sandbox();
    const bin = tool(sb, "loginctl", `case "$*" in *KillUserProcesses*) echo KillUserProcesses=yes ;; *) echo Linger=yes ;; esac`);
    const lingering = JSON.parse(sb.spex(["doctor", "--json"], { env: { PATH: `${bin}:${process.env.PATH}` } }).stdout);
    expect(lingering.checks.find((c: any) => c.name === "survives logout").ok).toBe(true);
    const none = tool(sb, "loginctl", "echo 'System has not been booted with systemd as init system (PID 1). Can'\\''t operate.' >&2; exit 1");
    const without = JSON.parse(sb.spex(["doctor", "--json"], { env: { PATH: `${none}:${process.env.PATH}` } }).stdout);
    expect(without.checks.find((c: any) => c.name === "survives logout").ok).toBe(true);
  });
});
