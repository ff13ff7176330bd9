// kill -9 part way through `session close` (DESIGN.md §6): whatever step it
// dies at, the next ls says what is left, and a second close finishes the job.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { type Sandbox, SPEX_BIN, sandbox, waitFor } from "../support/sandbox";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

function projectDir(s: Sandbox): string {
  const [key] = readdirSync(join(s.home, "projects"));
  return join(s.home, "projects", key!);
}

function ls(s: Sandbox): Record<string, any>[] {
  return JSON.parse(s.spex(["session", "ls", "--all", "--json"]).stdout);
}

function newSession(s: Sandbox, prompt: string): { id: string; tmux: string; branch: string; worktree: string } {
  const r = s.spex(["session", "new", "--launcher", "shell", "--json", prompt]);
  expect(r.stderr).toBe("");
  const rec = JSON.parse(r.stdout);
  return { id: rec.session_id, tmux: rec.tmux_session, branch: rec.branch, worktree: rec.worktree_path };
}

/** Nothing of the session is left, and a stale process of it can no longer send. */
function expectFullyClosed(s: Sandbox, made: ReturnType<typeof newSession>): void {
  expect(ls(s)).toEqual([]);
  expect(readdirSync(join(projectDir(s), "sessions"))).toEqual([]);
  expect(existsSync(made.worktree)).toBe(false);
  expect(s.git(["branch", "--list", made.branch]).trim()).toBe("");
  expect(s.tmux(["has-session", "-t", `=${made.tmux}`]).status).not.toBe(0);
  expect(existsSync(join(projectDir(s), "queue", "revoked", made.id))).toBe(true);
}

describe("crash at each close step", () => {
  for (const step of ["close-agent-stopped", "close-tmux-ended", "close-worktree-removed", "close-branch-deleted"]) {
    test(`kill -9 at "${step}" keeps the row, and a second close finishes the job`, () => {
      sb = sandbox();
      const made = newSession(sb, "crashy close");
      const r = sb.spex(["session", "close", made.id], { env: { SPEX_TEST_CRASH_AT: step } });
      expect(r.code).not.toBe(0);
      const rows = ls(sb);
      expect(rows.map((x) => x.session_id ?? x.id)).toEqual([made.id]);
      const again = sb.spex(["session", "close", made.id.slice(0, 8)]);
      expect(again.stderr).toBe("");
      expect(again.code).toBe(0);
      expectFullyClosed(sb, made);
    });
  }

  for (const step of ["close-record-hidden", "close-sender-revoked"]) {
    test(`kill -9 at "${step}" (the record already out of sight): the next close of it finishes the job and says so`, () => {
      sb = sandbox();
      const made = newSession(sb, "crashy close");
      const r = sb.spex(["session", "close", made.id], { env: { SPEX_TEST_CRASH_AT: step } });
      expect(r.code).not.toBe(0);
      expect(ls(sb)).toEqual([]);
      const again = sb.spex(["session", "close", made.id.slice(0, 8)]);
      expect(again.stderr).toBe("");
      expect(again.code).toBe(0);
      expect(again.stdout).toContain(`closed ${made.id.slice(0, 8)}: finished a close that was interrupted`);
      expectFullyClosed(sb, made);
    });
  }

  test("a close of another session also finishes one that was killed after its record went", () => {
    sb = sandbox();
    const made = newSession(sb, "crashy close");
    const other = newSession(sb, "other one");
    expect(sb.spex(["session", "close", made.id], { env: { SPEX_TEST_CRASH_AT: "close-record-hidden" } }).code).not.toBe(0);
    const r = sb.spex(["session", "close", other.id]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(readdirSync(join(projectDir(sb), "sessions"))).toEqual([]);
    expect(existsSync(join(projectDir(sb), "queue", "revoked", made.id))).toBe(true);
  });
});

describe("crash in merge --close", () => {
  /** A session with one commit of its own, and main moved on meanwhile (a squash then makes a copy). */
  function sessionWithWork(s: Sandbox): ReturnType<typeof newSession> {
    const made = newSession(s, "merge me");
    writeFileSync(join(made.worktree, "work.txt"), "work\n");
    s.git(["add", "work.txt"], made.worktree);
    s.git(["commit", "-q", "-m", "session work"], made.worktree);
    writeFileSync(join(s.repo, "main.txt"), "main\n");
    s.git(["add", "main.txt"]);
    s.git(["commit", "-q", "-m", "main moves"]);
    return made;
  }

  const mainLog = (s: Sandbox) => s.git(["log", "--format=%s", "main"]).trim().split("\n");

  for (const strategy of ["--squash", "--rebase"]) {
    test(`kill -9 right after a ${strategy} landed: merging again lands nothing twice and closes the session`, () => {
      sb = sandbox();
      const made = sessionWithWork(sb);
      const r = sb.spex(["session", "merge", made.id, strategy, "--close"], { env: { SPEX_TEST_CRASH_AT: "merge-landed" } });
      expect(r.code).not.toBe(0);
      const landed = mainLog(sb);
      const again = sb.spex(["session", "merge", made.id, strategy, "--close"]);
      expect(again.stderr).toBe("");
      expect(again.code).toBe(0);
      expect(again.stdout).toContain("is already on main");
      expect(mainLog(sb)).toEqual(landed);
      expectFullyClosed(sb, made);
    });
  }

  test("a branch squash-merged outside spex: merge --squash --close finds it there and closes", () => {
    sb = sandbox();
    const made = sessionWithWork(sb);
    sb.git(["merge", "--squash", "-q", made.branch]);
    sb.git(["commit", "-q", "-m", "squashed by hand"]);
    const r = sb.spex(["session", "merge", made.id, "--squash", "--close", "--json"]);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toMatchObject({ landing: "none", closed: true });
    expect(mainLog(sb)[0]).toBe("squashed by hand");
    expectFullyClosed(sb, made);
  });

  test("kill -9 between the merge and the close: merging again says it landed already and closes", () => {
    sb = sandbox();
    const made = sessionWithWork(sb);
    expect(sb.spex(["session", "merge", made.id, "--squash", "--close"], { env: { SPEX_TEST_CRASH_AT: "merge-before-close" } }).code).not.toBe(0);
    const landed = mainLog(sb);
    const again = sb.spex(["session", "merge", made.id, "--squash", "--close"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("already landed on main");
    expect(mainLog(sb)).toEqual(landed);
    expectFullyClosed(sb, made);
  });
});

describe("two closes of one session at once", () => {
  test("the one that loses the race says the session was closed meanwhile, and nothing is left half done", async () => {
    sb = sandbox();
    const made = newSession(sb, "closed twice");
    // The first close has read the record and stopped the agent, and is frozen before it takes the locks.
    const first = spawn(SPEX_BIN, ["session", "close", made.id], { cwd: sb.repo, env: { ...sb.env, SPEX_TEST_STOP_AT: "close-agent-stopped" }, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    first.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => first.on("exit", (code) => resolve(code)));
    await waitFor(() => readFileSync(`/proc/${first.pid}/stat`, "utf8").split(") ")[1]?.startsWith("T"), "the first close to stop at its fault point");
    const second = sb.spex(["session", "close", made.id]);
    expect(second.stderr).toBe("");
    expect(second.code).toBe(0);
    process.kill(first.pid!, "SIGCONT");
    expect(await exited).toBe(1);
    expect(stderr).toContain(`session ${made.id.slice(0, 8)} was closed meanwhile by another command; nothing more to do`);
    expect(stderr).toContain("[record_absent]");
    expectFullyClosed(sb, made);
  });
});

describe("crash in archive --stop", () => {
  for (const step of ["archive-agent-stopped", "archive-tmux-ended"]) {
    test(`kill -9 at "${step}": the row says the agent is gone, and archive --stop again files it away stopped`, () => {
      sb = sandbox();
      const made = newSession(sb, "archive me");
      expect(sb.spex(["session", "archive", "--stop", made.id], { env: { SPEX_TEST_CRASH_AT: step } }).code).not.toBe(0);
      const row = ls(sb)[0]!;
      expect(row.status).not.toBe("active");
      expect(row.archived).toBeFalsy();
      const again = sb.spex(["session", "archive", "--stop", made.id]);
      expect(again.stderr).toBe("");
      expect(again.code).toBe(0);
      const [after] = ls(sb);
      expect(after).toMatchObject({ archived: true, stopped: true });
      expect(sb.tmux(["has-session", "-t", `=${made.tmux}`]).status).not.toBe(0);
      expect(sb.spex(["session", "close", made.id]).code).toBe(0);
      expectFullyClosed(sb, made);
    });
  }
});

test("a hidden .closed-<id> folder beside a session that is still there is not an unfinished close: that session keeps sending, and the folder stays", () => {
  // The store can be hand-edited or planted (DESIGN.md §13): a close only ever renames away a folder that is then gone.
  sb = sandbox();
  const live = newSession(sb, "still here");
  const other = newSession(sb, "closed for real");
  const target = newSession(sb, "hears from it");
  const planted = join(projectDir(sb), "sessions", `.closed-${live.id}-00`);
  require("node:fs").mkdirSync(planted);
  expect(sb.spex(["session", "close", other.id]).code).toBe(0);
  expect(existsSync(join(projectDir(sb), "queue", "revoked", live.id))).toBe(false);
  expect(existsSync(planted)).toBe(true);
  const sent = sb.spex(["session", "send", target.id.slice(0, 8), "hi", "--from", live.id, "--queue-only"]);
  expect({ code: sent.code, stderr: sent.stderr }).toEqual({ code: 0, stderr: "" });
});

describe("what a close killed after its record went leaves, as doctor and the next close see it", () => {
  const doctor = (s: Sandbox) => JSON.parse(s.spex(["doctor", "--json"]).stdout);
  /** The argv of a `spex …` command doctor printed, run as a person would paste it. */
  const argvOf = (command: string) => command.split(" ").slice(1);

  test("doctor lists a session close killed after its record went, with spex's own close as the fix, and that fix finishes it", () => {
    sb = sandbox();
    const made = newSession(sb, "crashy close");
    expect(sb.spex(["session", "close", made.id], { env: { SPEX_TEST_CRASH_AT: "close-record-hidden" } }).code).not.toBe(0);
    const [hidden] = readdirSync(join(projectDir(sb), "sessions"));
    const report = doctor(sb);
    const path = join(projectDir(sb), "sessions", hidden!);
    expect(report.orphans.interruptedCloses).toEqual([path]);
    const fix = report.cleanup.find((c: any) => c.kind === "interruptedCloses");
    expect(fix).toEqual({ kind: "interruptedCloses", orphan: path, action: "remove", command: `spex session close ${made.id}`, reason: "" });
    const human = sb.spex(["doctor"]).stdout;
    expect(human).toContain("closes killed after their record was removed");
    expect(human).toContain(`remove: spex session close ${made.id}`);
    const ran = sb.spex(argvOf(fix.command));
    expect({ code: ran.code, stderr: ran.stderr }).toEqual({ code: 0, stderr: "" });
    expect(ran.stdout).toContain("finished a close that was interrupted");
    expectFullyClosed(sb, made);
    expect(doctor(sb).orphans.interruptedCloses).toEqual([]);
  });

  test("doctor lists a .closed-<id> folder planted beside a live session only to inspect, and never advises removing it", () => {
    sb = sandbox();
    const live = newSession(sb, "still here");
    const planted = join(projectDir(sb), "sessions", `.closed-${live.id}-00`);
    require("node:fs").mkdirSync(planted);
    const report = doctor(sb);
    expect(report.orphans.interruptedCloses).toEqual([planted]);
    const fix = report.cleanup.find((c: any) => c.kind === "interruptedCloses");
    expect(fix.action).toBe("inspect");
    expect(fix.command).toBe(`ls -la ${planted}`);
    expect(fix.reason).toContain(`session ${live.id} is still there`);
    expect(existsSync(planted)).toBe(true);
  });

  test("a terminal close killed after its record went: doctor lists it, closing that terminal again finishes it and says so", () => {
    sb = sandbox();
    const made = newSession(sb, "with a shell");
    const opened = JSON.parse(sb.spex(["terminal", "new", "--session", made.id, "--json"]).stdout);
    const terminals = join(projectDir(sb), "terminals");
    const r = sb.spex(["terminal", "close", opened.id], { env: { SPEX_TEST_CRASH_AT: "terminal-record-hidden" } });
    expect(r.code).not.toBe(0);
    const [hidden] = readdirSync(terminals);
    expect(hidden).toStartWith(`.closed-${opened.id}.json-`);
    const report = doctor(sb);
    expect(report.orphans.interruptedCloses).toEqual([join(terminals, hidden!)]);
    const fix = report.cleanup.find((c: any) => c.kind === "interruptedCloses");
    expect([fix.action, fix.command]).toEqual(["remove", `spex terminal close ${opened.id}`]);
    const again = sb.spex(["terminal", "close", opened.id.slice(0, 8)]);
    expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: "" });
    expect(again.stdout).toContain(`closed terminal ${opened.id.slice(0, 8)}: finished a close that was interrupted`);
    expect(readdirSync(terminals)).toEqual([]);
  });

  test("closing the session a killed terminal close sat beside also finishes that terminal's leftover", () => {
    sb = sandbox();
    const made = newSession(sb, "with a shell");
    const opened = JSON.parse(sb.spex(["terminal", "new", "--session", made.id, "--json"]).stdout);
    expect(sb.spex(["terminal", "close", opened.id], { env: { SPEX_TEST_CRASH_AT: "terminal-record-hidden" } }).code).not.toBe(0);
    const r = sb.spex(["session", "close", made.id]);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(readdirSync(join(projectDir(sb), "terminals"))).toEqual([]);
    expectFullyClosed(sb, made);
  });
});
