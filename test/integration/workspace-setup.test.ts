// Setup and teardown (issue 26 item 1): the main checkout's spexcode.json says
// what runs in a new worktree before the agent starts, and before close
// removes it. Driven through the built binary with shell-harness sessions.
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, SPEX_BIN, sandbox, waitFor } from "../support/sandbox";
import { spawn } from "node:child_process";
import { linuxBackend } from "../../lib/proc/linux";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

// The "agent": copies what setup left for it, then stays (readiness by its pid).
const AGENT = "sh -c 'cat setup-ran.txt > agent-saw.txt 2>/dev/null || echo nothing > agent-saw.txt; exec sleep 600' agent";

function configure(s: Sandbox, extra: Record<string, unknown>, command = AGENT): void {
  writeFileSync(join(s.repo, "spexcode.local.json"), JSON.stringify({ launchers: { agent: { harness: "shell", command } }, ...extra }));
}

// An agent that leaves the worktree as it found it (a plain close has nothing to refuse).
const QUIET = "sh -c 'exec sleep 600' agent";

function rowOf(s: Sandbox, id: string): Record<string, any> {
  return (JSON.parse(s.spex(["session", "ls", "--all", "--json"]).stdout) as Record<string, any>[]).find((r) => r.id === id)!;
}

function pane(s: Sandbox, name: string): string {
  return s.tmux(["capture-pane", "-p", "-t", `=${name}:`, "-S", "-50"]).stdout;
}

describe("setup", () => {
  test("setup runs in the new worktree before the agent starts: the agent sees its result, the pane and the log show it", async () => {
    sb = sandbox();
    configure(sb, { setup: ["echo ready > setup-ran.txt", 'printf "%s %s" "$SPEX_SESSION_ID" "$SPEX_WORKTREE" > setup-env.txt'] });
    const r = sb.spex(["session", "new", "--launcher", "agent", "--json", "build it"]);
    expect(r.stderr).toBe("");
    const created = JSON.parse(r.stdout);
    expect(created.ready).toBe(true);
    const wt = created.worktree_path;
    // Ready once its process runs; what it writes follows a moment later.
    await waitFor(() => existsSync(join(wt, "agent-saw.txt")) && readFileSync(join(wt, "agent-saw.txt"), "utf8") !== "", "what the agent saw");
    expect(readFileSync(join(wt, "agent-saw.txt"), "utf8")).toBe("ready\n");
    expect(readFileSync(join(wt, "setup-env.txt"), "utf8")).toBe(`${created.session_id} ${wt}`);
    const screen = pane(sb, created.tmux_session);
    expect(screen).toContain("$ echo ready > setup-ran.txt");
    expect(screen).toContain("spex: setup done");
    const show = JSON.parse(sb.spex(["session", "show", created.session_id, "--json"]).stdout);
    expect(show.workspace.setup.state).toBe("ok");
    expect(readFileSync(show.workspace.setup.log, "utf8")).toContain("$ echo ready > setup-ran.txt");
    expect(rowOf(sb, created.session_id).setup).toBe("");
  });

  test("a failing setup leaves the session setup_failed with its exit status and log, the agent not started; resume runs setup again", async () => {
    sb = sandbox();
    configure(sb, { setup: ["test -f go.txt || { echo 'go.txt is missing'; exit 3; }", "echo ready > setup-ran.txt"] });
    const r = sb.spex(["session", "new", "--launcher", "agent", "--json", "needs go"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("[setup_failed]");
    const error = JSON.parse(r.stdout).error;
    expect(error.code).toBe("setup_failed");
    expect(error.exit).toBe(3);
    expect(error.rolledBack).toBe(false);
    expect(error.hint).toContain("resume");
    expect(readFileSync(error.log, "utf8")).toContain("go.txt is missing");
    const id = error.session_id;
    const row = rowOf(sb, id);
    expect(row.display).toBe("setup_failed");
    expect(row.setup).toBe("failed");
    // The agent never ran; the worktree stays for the retry.
    expect(existsSync(join(row.worktree, "agent-saw.txt"))).toBe(false);
    expect(existsSync(row.worktree)).toBe(true);
    const show = JSON.parse(sb.spex(["session", "show", id, "--json"]).stdout);
    expect(show.workspace.setup).toMatchObject({ state: "failed", exit: 3, log: error.log });
    expect(sb.spex(["session", "show", id]).stdout).toContain(error.log);

    writeFileSync(join(row.worktree, "go.txt"), "go\n");
    const resumed = sb.spex(["session", "resume", id, "--json"]);
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    await waitFor(() => existsSync(join(row.worktree, "agent-saw.txt")) && readFileSync(join(row.worktree, "agent-saw.txt"), "utf8") !== "", "the agent's start after the retried setup");
    expect(readFileSync(join(row.worktree, "agent-saw.txt"), "utf8")).toBe("ready\n");
    const after = rowOf(sb, id);
    expect(after.setup).toBe("");
    expect(after.display).not.toBe("setup_failed");
  });

  test("setupTimeoutSec ends a setup that runs too long", () => {
    sb = sandbox();
    configure(sb, { setup: ["sleep 60"], setupTimeoutSec: 1 });
    const r = sb.spex(["session", "new", "--launcher", "agent", "--json", "slow setup"]);
    expect(r.code).toBe(1);
    const error = JSON.parse(r.stdout).error;
    expect(error.code).toBe("setup_failed");
    expect(error.reason).toBe("timed out after 1 s");
    expect(rowOf(sb, error.session_id).display).toBe("setup_failed");
  });

  test("a base branch's spexcode.json names no setup: only the main checkout's config runs", () => {
    sb = sandbox();
    configure(sb, {});
    sb.git(["checkout", "-q", "-b", "planted"]);
    writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ setup: ["touch planted-setup-ran"] }));
    sb.git(["add", "spexcode.json"]);
    sb.git(["commit", "-q", "-m", "a setup of the base"]);
    sb.git(["checkout", "-q", "main"]);
    const r = sb.spex(["session", "new", "--launcher", "agent", "--base", "planted", "--json", "from the planted base"]);
    expect(r.stderr).toBe("");
    const created = JSON.parse(r.stdout);
    expect(existsSync(join(created.worktree_path, "spexcode.json"))).toBe(true);
    expect(existsSync(join(created.worktree_path, "planted-setup-ran"))).toBe(false);
  });
});

describe("a script for setup and teardown", () => {
  test("an executable script runs as itself, one without the x bit runs through sh; both in the worktree, from the main checkout's copy", () => {
    sb = sandbox();
    const out = join(sb.dir, "scripts-ran.txt");
    mkdirSync(join(sb.repo, "scripts"));
    writeFileSync(join(sb.repo, "scripts", "setup.sh"), `#!/bin/sh\nprintf 'setup %s\\n' "$(pwd)" >> '${out}'\n`);
    chmodSync(join(sb.repo, "scripts", "setup.sh"), 0o755);
    writeFileSync(join(sb.repo, "scripts", "teardown.sh"), `printf 'teardown %s\\n' "$(pwd)" >> '${out}'\n`);
    chmodSync(join(sb.repo, "scripts", "teardown.sh"), 0o644);
    configure(sb, { setup: "scripts/setup.sh", teardown: "scripts/teardown.sh" }, QUIET);
    const r = sb.spex(["session", "new", "--launcher", "agent", "--json", "scripted"]);
    expect(r.stderr).toBe("");
    const created = JSON.parse(r.stdout);
    const closed = sb.spex(["session", "close", created.session_id, "--force", "--json"]);
    expect(closed.stderr).toBe("");
    expect(JSON.parse(closed.stdout).teardown).toMatchObject({ ok: true, exit: 0 });
    expect(readFileSync(out, "utf8")).toBe(`setup ${created.worktree_path}\nteardown ${created.worktree_path}\n`);
  });
});

describe("teardown", () => {
  test("close runs the teardown in the worktree before removing it", () => {
    sb = sandbox();
    const out = join(sb.dir, "teardown-ran.txt");
    configure(sb, { teardown: [`printf "%s %s" "$SPEX_SESSION_ID" "$(pwd)" > '${out}'`] }, QUIET);
    const created = JSON.parse(sb.spex(["session", "new", "--launcher", "agent", "--json", "tear me down"]).stdout);
    const closed = sb.spex(["session", "close", created.session_id, "--force", "--json"]);
    expect(closed.stderr).toBe("");
    expect(JSON.parse(closed.stdout).teardown).toMatchObject({ ok: true, exit: 0 });
    expect(readFileSync(out, "utf8")).toBe(`${created.session_id} ${created.worktree_path}`);
    expect(existsSync(created.worktree_path)).toBe(false);
  });

  test("a failing teardown refuses a plain close (the worktree stays) and is only reported by close --force", () => {
    sb = sandbox();
    configure(sb, { teardown: ["echo 'compose down failed'; exit 4"] }, QUIET);
    const created = JSON.parse(sb.spex(["session", "new", "--launcher", "agent", "--json", "stubborn"]).stdout);
    // Only the spex-rendered files are in the worktree: a plain close would go through but for the teardown.
    const plain = sb.spex(["session", "close", created.session_id, "--json"]);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain("[teardown_failed]");
    expect(plain.stderr).toContain("compose down failed");
    expect(existsSync(created.worktree_path)).toBe(true);
    expect(rowOf(sb, created.session_id)).toBeDefined();
    const forced = sb.spex(["session", "close", created.session_id, "--force", "--json"]);
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.stdout).teardown).toMatchObject({ ok: false, exit: 4, reason: expect.stringContaining("exit 4") });
    expect(existsSync(created.worktree_path)).toBe(false);
  });
});

describe("teardown and a close cut short", () => {
  test("a close killed after the teardown ran and before the worktree went: the next close finishes without running the teardown again", () => {
    sb = sandbox();
    const count = join(sb.dir, "teardown-runs.txt");
    configure(sb, { teardown: [`echo dropped >> '${count}'`] }, QUIET);
    const created = JSON.parse(sb.spex(["session", "new", "--launcher", "agent", "--json", "owns a database"]).stdout);
    const killed = sb.spex(["session", "close", created.session_id], { env: { SPEX_TEST_CRASH_AT: "close-teardown-ran" } });
    expect(killed.code).not.toBe(0);
    expect(readFileSync(count, "utf8")).toBe("dropped\n");
    expect(existsSync(created.worktree_path)).toBe(true);
    expect(rowOf(sb, created.session_id)).toBeDefined();
    const again = sb.spex(["session", "close", created.session_id, "--json"]);
    expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: "" });
    expect(JSON.parse(again.stdout).teardown).toMatchObject({ ok: true, earlier: true });
    expect(readFileSync(count, "utf8")).toBe("dropped\n");
    expect(existsSync(created.worktree_path)).toBe(false);
    expect(rowOf(sb, created.session_id)).toBeUndefined();
  });

  test("a failed teardown a forced close went past is run again by the next close, and says so in text", () => {
    sb = sandbox();
    const count = join(sb.dir, "teardown-runs.txt");
    configure(sb, { teardown: [`echo tried >> '${count}'; exit 5`] }, QUIET);
    const created = JSON.parse(sb.spex(["session", "new", "--launcher", "agent", "--json", "flaky teardown"]).stdout);
    expect(sb.spex(["session", "close", created.session_id, "--force"], { env: { SPEX_TEST_CRASH_AT: "close-teardown-ran" } }).code).not.toBe(0);
    const again = sb.spex(["session", "close", created.session_id, "--force"]);
    expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: "" });
    expect(again.stdout).toContain("teardown failed (exit 5");
    expect(readFileSync(count, "utf8")).toBe("tried\ntried\n");
  });
});

describe("a close interrupted while the teardown runs", () => {
  const groupAlive = (pgid: number) => {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  };

  /** A session whose teardown writes its pid and "start", then waits for `fast` before "end". */
  function slowTeardown(label: string) {
    sb = sandbox();
    const runs = join(sb.dir, "runs.txt");
    const pidFile = join(sb.dir, "teardown.pid");
    const fast = join(sb.dir, "fast");
    configure(sb, { teardown: [`echo $$ > '${pidFile}'; echo start >> '${runs}'; [ -e '${fast}' ] || sleep 30; echo end >> '${runs}'`] }, QUIET);
    const created = JSON.parse(sb.spex(["session", "new", "--launcher", "agent", "--json", label]).stdout);
    return { runs, pidFile, fast, created };
  }

  for (const signal of ["SIGHUP", "SIGINT"] as const) {
    test(`${signal} to close ends the teardown with it and keeps everything; closing again runs the teardown from the start`, async () => {
      const { runs, pidFile, fast, created } = slowTeardown("slow teardown");
      const close = spawn(SPEX_BIN, ["session", "close", created.session_id, "--force"], { cwd: sb.repo, env: sb.env, stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "";
      close.stderr.on("data", (d) => (stderr += d));
      const exited = new Promise<number | null>((resolve) => close.on("exit", (code) => resolve(code)));
      await waitFor(() => existsSync(runs) && readFileSync(runs, "utf8") === "start\n", "the teardown to start");
      const pgid = Number(readFileSync(pidFile, "utf8"));
      try {
        close.kill(signal);
        expect(await exited).toBe(1);
        await waitFor(() => !groupAlive(pgid), "the teardown's processes to end with the close", 8000);
      } finally {
        if (groupAlive(pgid)) process.kill(-pgid, "SIGKILL");
      }
      expect(stderr).toContain("[teardown_failed]");
      expect(stderr).toContain("runs the teardown again from the start");
      expect(readFileSync(runs, "utf8")).toBe("start\n");
      expect(existsSync(created.worktree_path)).toBe(true);
      expect(rowOf(sb, created.session_id)).toBeDefined();
      writeFileSync(fast, "");
      const again = sb.spex(["session", "close", created.session_id, "--force"]);
      expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: "" });
      expect(readFileSync(runs, "utf8")).toBe("start\nstart\nend\n");
      expect(existsSync(created.worktree_path)).toBe(false);
    });
  }

  test("kill -9 of close, which nothing in it can catch, still ends the teardown's processes; closing again runs the teardown from the start", async () => {
    const { runs, pidFile, fast, created } = slowTeardown("killed close");
    const close = spawn(SPEX_BIN, ["session", "close", created.session_id, "--force"], { cwd: sb.repo, env: sb.env, stdio: ["ignore", "ignore", "ignore"] });
    const exited = new Promise<string | null>((resolve) => close.on("exit", (_code, signal) => resolve(signal)));
    await waitFor(() => existsSync(runs) && readFileSync(runs, "utf8") === "start\n", "the teardown to start");
    const pgid = Number(readFileSync(pidFile, "utf8"));
    try {
      close.kill("SIGKILL");
      expect(await exited).toBe("SIGKILL");
      await waitFor(() => !groupAlive(pgid), "the teardown's processes to end after the close", 8000);
    } finally {
      if (groupAlive(pgid)) process.kill(-pgid, "SIGKILL");
    }
    expect(readFileSync(runs, "utf8")).toBe("start\n");
    expect(existsSync(created.worktree_path)).toBe(true);
    writeFileSync(fast, "");
    const again = sb.spex(["session", "close", created.session_id, "--force"]);
    expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: "" });
    expect(readFileSync(runs, "utf8")).toBe("start\nstart\nend\n");
  });

  test("a close killed after it started the teardown and before its watchdog was up: the teardown never runs unwatched; closing again runs it once", async () => {
    const { runs, pidFile, fast, created } = slowTeardown("killed between spawns");
    const killed = sb.spex(["session", "close", created.session_id, "--force"], { env: { SPEX_TEST_CRASH_AT: "step-spawned" } });
    expect(killed.code).not.toBe(0);
    // The step's command line names its pid file: nothing that carries it may live on.
    const running = () => linuxBackend.commandLines().filter((c) => c.argv.some((a) => a.includes(pidFile)));
    try {
      await waitFor(() => running().length === 0, "nothing of the teardown left running", 8000);
    } finally {
      for (const c of running()) process.kill(c.pid, "SIGKILL");
    }
    expect(existsSync(runs)).toBe(false);
    expect(existsSync(created.worktree_path)).toBe(true);
    writeFileSync(fast, "");
    const again = sb.spex(["session", "close", created.session_id, "--force"]);
    expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: "" });
    expect(readFileSync(runs, "utf8")).toBe("start\nend\n");
    expect(existsSync(created.worktree_path)).toBe(false);
  });
});
