// doctor checks the machine anywhere (outside a repository too, and without
// tmux, which it reports rather than tripping over), and inside a repository
// lists each orphan with the command that removes it: the test runs every
// command it prints and sees the orphan gone.
import { afterEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectStore, sessionPaths } from "../../lib/store";
import { seedRecord } from "../support/records";
import { SPEX_BIN, type Sandbox, sandbox } from "../support/sandbox";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

/** A PATH holding only these tools (no tmux). */
function pathWithout(s: Sandbox, tools: string[]): string {
  const bin = join(s.dir, "bin-without-tmux");
  mkdirSync(bin, { recursive: true });
  for (const tool of tools) {
    const found = spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).stdout.trim();
    symlinkSync(found, join(bin, tool));
  }
  return bin;
}

function check(report: any, name: string): { ok: boolean; detail: string } {
  return report.checks.find((c: any) => c.name === name);
}

describe("spex doctor", () => {
  test("outside a repository it checks the machine only and passes", () => {
    sb = sandbox({ repo: false });
    const outside = join(sb.dir, "not-a-repo");
    mkdirSync(outside);
    const r = sb.spex(["doctor", "--json"], { cwd: outside });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.project).toBeNull();
    expect(check(report, "git").ok).toBe(true);
    expect(check(report, "tmux").ok).toBe(true);
    expect(check(report, "SPEX_HOME").ok).toBe(true);
    // The built-in launchers, whatever is installed here.
    expect(report.checks.map((c: any) => c.name)).toEqual(expect.arrayContaining(["launcher claude", "launcher shell"]));
    expect(report.cleanup).toEqual([]);
    const human = sb.spex(["doctor"], { cwd: outside });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain("machine checks only");
  });

  test("without tmux on PATH it reports tmux missing (exit 1) instead of failing, in a repository with sessions and outside one", () => {
    sb = sandbox();
    seedRecord(sb.home, sb.repo, { prompt: "a session with a tmux name", tmux_session: "x-1234", tmux_socket: sb.tmuxSocket });
    const PATH = pathWithout(sb, ["git", "sh"]);
    const outside = join(sb.dir, "elsewhere");
    mkdirSync(outside);
    for (const cwd of [sb.repo, outside]) {
      const r = sb.spex(["doctor", "--json"], { cwd, env: { PATH } });
      expect(r.stderr).toBe("");
      expect(r.code).toBe(1);
      const report = JSON.parse(r.stdout);
      expect(check(report, "tmux")).toMatchObject({ ok: false });
      expect(check(report, "tmux").detail).toContain("not on PATH");
      expect(check(report, "git").ok).toBe(true);
      const human = sb.spex(["doctor"], { cwd, env: { PATH } });
      expect(human.stderr).toBe("");
      expect(human.stdout).toMatch(/tmux\s+FAIL\s+tmux is not on PATH/);
    }
  });

  test("each orphan comes with the command that removes it, and running those commands leaves no orphan", () => {
    sb = sandbox();
    const store = projectStore(sb.repo, sb.home);
    // A registered worktree and a plain folder under the worktree root, neither with a record.
    sb.git(["worktree", "add", "-q", "-b", "spex/lost-aaaa", join(sb.repo, ".worktrees", "lost-aaaa")]);
    mkdirSync(join(sb.repo, ".worktrees", "stray folder"), { recursive: true });
    // A tmux session of this project whose record is gone.
    const made = JSON.parse(sb.spex(["session", "new", "--launcher", "shell", "--json", "lost its record"], { env: { SHELL: "/bin/sh" } }).stdout);
    rmSync(sessionPaths(store, made.session_id).dir, { recursive: true, force: true });
    sb.git(["worktree", "remove", "--force", made.worktree_path]);
    // A retired record (its worktree is gone) and a corrupt one.
    const retired = seedRecord(sb.home, sb.repo, { prompt: "retired one" });
    rmSync(retired.worktree_path, { recursive: true, force: true });
    // Corrupt: cut off mid-record, after the names quarantine asks for (all gone already).
    const corrupt = seedRecord(sb.home, sb.repo, { prompt: "corrupt one", tmux_session: "corrupt-one-gone" });
    rmSync(corrupt.worktree_path, { recursive: true, force: true });
    const file = sessionPaths(store, corrupt.session_id).record;
    const bytes = readFileSync(file, "utf8");
    writeFileSync(file, bytes.slice(0, bytes.indexOf('"agent_pid"')));
    // The commands name `spex`, as a user who installed it runs them.
    const onPath = join(sb.dir, "spex-bin");
    mkdirSync(onPath);
    symlinkSync(SPEX_BIN, join(onPath, "spex"));

    const report = JSON.parse(sb.spex(["doctor", "--json"]).stdout);
    const kinds = report.cleanup.map((c: any) => c.kind).sort();
    expect(kinds).toEqual(["corruptRecords", "retiredRecords", "tmuxSessions", "worktrees", "worktrees"]);
    for (const c of report.cleanup) expect(report.orphans[c.kind]).toContain(c.orphan);
    // Nothing here holds anyone's work: every piece of advice is a removal.
    expect(report.cleanup.map((c: any) => [c.action, c.reason])).toEqual(report.cleanup.map(() => ["remove", ""]));
    const human = sb.spex(["doctor"]).stdout;
    for (const c of report.cleanup) expect(human).toContain(`    remove: ${c.command}`);

    for (const c of report.cleanup) {
      const r = spawnSync("sh", ["-c", c.command], { cwd: sb.repo, env: { ...sb.env, PATH: `${onPath}:${sb.env.PATH}` }, encoding: "utf8" });
      expect({ command: c.command, code: r.status, stderr: r.stderr }).toEqual({ command: c.command, code: 0, stderr: "" });
    }
    const after = JSON.parse(sb.spex(["doctor", "--json"]).stdout);
    expect(after.cleanup).toEqual([]);
    expect(Object.values(after.orphans).flat()).toEqual([]);
  });
});

describe("doctor never advises removing anyone's work", () => {
  test("a folder holding the user's own worktree, uncommitted, ignored or unmerged work, unknown files, and what a corrupt record may own are to be inspected; running every command doctor prints loses nothing", () => {
    sb = sandbox();
    const store = projectStore(sb.repo, sb.home);
    const wt = (rel: string) => join(sb.repo, ".worktrees", rel);
    // The user's own worktree nested under .worktrees, with an edit in it.
    sb.git(["worktree", "add", "-q", "-b", "feature", wt("mine/feature")]);
    writeFileSync(wt("mine/feature/README.md"), "my edit\n");
    // Worktrees at the top: an uncommitted edit, only an ignored file, a commit main does not have.
    sb.git(["worktree", "add", "-q", "-b", "dirty", wt("dirty")]);
    writeFileSync(wt("dirty/new.txt"), "draft\n");
    writeFileSync(join(sb.repo, ".gitignore"), ".env\n");
    sb.git(["add", ".gitignore"]);
    sb.git(["commit", "-q", "-m", "ignore .env"]);
    sb.git(["worktree", "add", "-q", "-b", "ignored", wt("ignored")]);
    writeFileSync(wt("ignored/.env"), "SECRET=1\n");
    sb.git(["worktree", "add", "-q", "-b", "ahead", wt("ahead")]);
    writeFileSync(wt("ahead/work.txt"), "work\n");
    sb.git(["add", "work.txt"], wt("ahead"));
    sb.git(["commit", "-q", "-m", "work only on ahead"], wt("ahead"));
    // A folder git knows nothing of, with a file in it.
    mkdirSync(wt("notes"));
    writeFileSync(wt("notes/todo.txt"), "remember\n");
    // Two live sessions whose records then turn corrupt: one cut short (its names still readable), one garbage.
    const live = (prompt: string) => JSON.parse(sb.spex(["session", "new", "--launcher", "shell", "--json", prompt], { env: { SHELL: "/bin/sh" } }).stdout);
    const cut = live("cut short");
    const garbled = live("garbled");
    const cutFile = sessionPaths(store, cut.session_id).record;
    const bytes = readFileSync(cutFile, "utf8");
    writeFileSync(cutFile, bytes.slice(0, bytes.indexOf('"agent_pid"')));
    writeFileSync(sessionPaths(store, garbled.session_id).record, "{ not json");
    for (const s of [cut, garbled]) writeFileSync(join(s.worktree_path, "agent-work.txt"), "unsaved\n");

    const report = JSON.parse(sb.spex(["doctor", "--json"]).stdout);
    const advice = (orphan: string) => report.cleanup.find((c: any) => c.orphan === orphan);
    for (const path of [wt("mine"), wt("dirty"), wt("ignored"), wt("ahead"), wt("notes"), cut.worktree_path, garbled.worktree_path]) {
      expect({ path, action: advice(path)?.action }).toEqual({ path, action: "inspect" });
    }
    expect(advice(wt("mine")).reason).toContain(wt("mine/feature"));
    expect(advice(wt("dirty")).reason).toContain("uncommitted");
    expect(advice(wt("ahead")).reason).toContain("unmerged");
    for (const s of [cut, garbled]) {
      expect(advice(s.worktree_path).reason).toContain(s.session_id);
      expect(advice(s.tmux_session)).toMatchObject({ kind: "tmuxSessions", action: "inspect" });
      expect(advice(s.tmux_session).command).not.toContain("kill");
    }
    // The text says the same.
    const human = sb.spex(["doctor"]).stdout;
    expect(human).toContain(`  ${wt("mine")}\n    inspect: `);
    expect(human).not.toMatch(/rm -rf|worktree remove|kill-session/);

    // Every command doctor printed, run as a person would: all the work is still there.
    for (const c of report.cleanup) spawnSync("sh", ["-c", c.command], { cwd: sb.repo, env: sb.env, encoding: "utf8" });
    expect(readFileSync(wt("mine/feature/README.md"), "utf8")).toBe("my edit\n");
    expect(readFileSync(wt("dirty/new.txt"), "utf8")).toBe("draft\n");
    expect(readFileSync(wt("ignored/.env"), "utf8")).toBe("SECRET=1\n");
    expect(existsSync(wt("ahead/work.txt"))).toBe(true);
    expect(readFileSync(wt("notes/todo.txt"), "utf8")).toBe("remember\n");
    for (const s of [cut, garbled]) {
      expect(readFileSync(join(s.worktree_path, "agent-work.txt"), "utf8")).toBe("unsaved\n");
      expect(sb.tmux(["has-session", "-t", `=${s.tmux_session}`]).status).toBe(0);
    }
    expect(sb.git(["worktree", "list", "--porcelain"]).match(/^worktree /gm)).toHaveLength(7);
    expect(readdirSync(join(sb.repo, ".worktrees")).sort()).toEqual(["ahead", "dirty", "ignored", "mine", "notes", cut.tmux_session, garbled.tmux_session].sort());
  });
});
