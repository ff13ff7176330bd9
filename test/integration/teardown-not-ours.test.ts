// Never touch what is not ours (issue 10, items 4, 13, 14 and 15), each rule
// tested as the attack that broke it: close deleting ignored files, a late
// failure hook reviving a stopped record, a process of a stopped session left
// running, doctor calling another project's sessions orphans.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, SPEX_BIN, type Sandbox, makeRepo, sandbox } from "../support/sandbox";
import { installFakeAgents } from "../support/agents";
import { seedRecord } from "../support/records";
import { alive, branchExists, hasTmux, json, recordFile, seedLive } from "../support/teardown";

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

const close = (sel: string, ...flags: string[]) => sb.spex(["session", "close", sel, ...flags, "--json"]);

describe("close and ignored files", () => {
  test("close without --force refuses over ignored files (info/exclude, a nested .worktrees folder), lists them and changes nothing; --force lists them as discarded; spex's own rendered files are not work", () => {
    const s = seedLive(sb, { agent: "owned", harness: "claude" });
    appendFileSync(join(sb.repo, ".git", "info", "exclude"), "/.worktrees/\n.env.local\nbuild/\n.claude/\n");
    writeFileSync(join(s.worktree, ".env.local"), "SECRET=1\n");
    mkdirSync(join(s.worktree, "build", "deep"), { recursive: true });
    writeFileSync(join(s.worktree, "build", "deep", "out.bin"), "x");
    // What spex itself renders into a worktree (here ignored through `.claude/`) is spex's, not work.
    mkdirSync(join(s.worktree, ".claude"));
    writeFileSync(join(s.worktree, ".claude", "settings.local.json"), "{}\n");
    writeFileSync(join(s.worktree, "spexcode.local.json"), "{}\n");
    // The `/.worktrees/` exclude spex adds also matches a folder of that name inside the session's worktree.
    mkdirSync(join(s.worktree, ".worktrees", "nested"), { recursive: true });
    writeFileSync(join(s.worktree, ".worktrees", "nested", "work.txt"), "nested work\n");
    const before = readFileSync(recordFile(sb, s.id));

    const refused = close(s.id);
    expect(refused.code).toBe(1);
    expect(json(refused.stdout).error).toMatchObject({ code: "worktree_dirty", files: ["!! .env.local", "!! .worktrees/", "!! build/"] });
    expect(refused.stderr).toContain(".env.local");
    expect(readFileSync(join(s.worktree, ".env.local"), "utf8")).toBe("SECRET=1\n");
    expect(alive(s.pid)).toBe(true);
    expect(hasTmux(sb, s.tmuxName)).toBe(true);
    expect(readFileSync(recordFile(sb, s.id))).toEqual(before);

    const forced = close(s.id, "--force");
    expect(forced.code).toBe(0);
    expect(json(forced.stdout)).toMatchObject({ forced: true, worktree: "removed", discarded: { files: ["!! .env.local", "!! .worktrees/", "!! build/"] } });
    expect(existsSync(s.worktree)).toBe(false);
    expect(branchExists(sb, s.branch)).toBe(false);
  });

  test("a worktree holding only what spex rendered (hook config and the local config copy, ignored or untracked) closes without --force", () => {
    const s = seedLive(sb, { agent: "dead", tmux: false, harness: "codex" });
    appendFileSync(join(sb.repo, ".git", "info", "exclude"), "/.codex/hooks.json\nspexcode.local.json\n");
    mkdirSync(join(s.worktree, ".codex"));
    writeFileSync(join(s.worktree, ".codex", "hooks.json"), "{}\n");
    writeFileSync(join(s.worktree, "spexcode.local.json"), "{}\n");
    const r = close(s.id);
    expect(r.stderr).toBe("");
    expect(json(r.stdout)).toMatchObject({ worktree: "removed", discarded: { files: [] } });
  });
});

/** Fire one agent hook the way a harness does: the installed script, the session's environment, a payload on stdin. */
function fireHook(id: string, action: string, event: string, payload: object, bin = SPEX_BIN) {
  return spawnSync("/bin/sh", [join(REPO_ROOT, "hooks", "agent-hook.sh"), "claude", action, event], {
    cwd: sb.repo,
    env: { ...sb.env, SPEX_SESSION_ID: id, SPEX_PROJECT_ROOT: sb.repo, SPEX_RECORD: recordFile(sb, id), SPEX_BIN: bin },
    input: JSON.stringify(payload),
    encoding: "utf8",
  });
}

describe("late failure hooks", () => {
  test("a StopFailure after stop, on an archived record or on a retired one changes nothing, through the hook script and through the binary; an undeclared live active turn still fails", () => {
    const s = seedLive(sb, { agent: "owned", fields: { status: "active" } });
    expect(sb.spex(["session", "stop", s.id, "--json"]).code).toBe(0);
    const archived = seedRecord(sb.home, sb.repo, { prompt: "archived mid-turn", status: "active", archived: true });
    const retired = seedRecord(sb.home, sb.repo, { prompt: "retired mid-turn", status: "active" });
    rmSync(retired.worktree_path, { recursive: true, force: true });
    for (const id of [s.id, archived.session_id, retired.session_id]) {
      const bytes = readFileSync(recordFile(sb, id));
      expect(fireHook(id, "fail", "StopFailure", { error: "late failure" }).status).toBe(0);
      sb.spex(["internal", "hook", "claude", "fail", "StopFailure"], { env: { SPEX_SESSION_ID: id, SPEX_PROJECT_ROOT: sb.repo }, input: '{"error":"late failure"}' });
      expect({ id, unchanged: readFileSync(recordFile(sb, id)).equals(bytes) }).toEqual({ id, unchanged: true });
    }
    const live = seedRecord(sb.home, sb.repo, { prompt: "live turn", status: "active" });
    fireHook(live.session_id, "fail", "StopFailure", { error: "rate limited" });
    expect(json(sb.spex(["session", "show", live.session_id, "--json"]).stdout)).toMatchObject({ lifecycle: "error", note: "rate limited" });
  });

  test("the hook script's fast path agrees: a StopFailure on a stopped or archived active record spawns nothing", () => {
    const marker = join(sb.dir, "binary-called");
    const mustNotRun = join(sb.dir, "must-not-run");
    writeFileSync(mustNotRun, `#!/bin/sh\necho "$@" >> '${marker}'\n`, { mode: 0o755 });
    for (const fields of [{ stopped: true }, { archived: true }]) {
      const rec = seedRecord(sb.home, sb.repo, { status: "active", ...fields });
      expect(fireHook(rec.session_id, "fail", "StopFailure", {}, mustNotRun).status).toBe(0);
      expect({ fields, called: existsSync(marker) }).toEqual({ fields, called: false });
    }
  });
});

describe("doctor's orphans", () => {
  test("on a tmux socket shared with another project (and with the user's own sessions), doctor lists only this project's tmux sessions that lost their record", () => {
    installFakeAgents(sb);
    const other = makeRepo(join(sb.dir, "other-project"), sb.env);
    const create = (cwd: string, prompt: string) => {
      const r = sb.spex(["session", "new", "--launcher", "claude", "--json", prompt], { cwd });
      expect(r.stderr).toBe("");
      return json(r.stdout) as { session_id: string; tmux_session: string };
    };
    const theirs = create(other, "their live session");
    const ours = create(sb.repo, "our live session");
    const lost = create(sb.repo, "our session that lost its record");
    const legacy = create(sb.repo, "our older session that lost its record");
    sb.tmux(["new-session", "-d", "-s", "users-own-shell", "sleep 1000"]);
    // Sessions opened before spex tagged them: told apart by the environment their launch script exported.
    for (const s of [legacy, theirs]) for (const o of ["@spex_project", "@spex_home"]) sb.tmux(["set-option", "-u", "-t", `=${s.tmux_session}:`, o]);
    // The records of `lost` and `legacy` are gone; their tmux sessions are real orphans of this project.
    for (const s of [lost, legacy]) rmSync(join(recordFile(sb, s.session_id), ".."), { recursive: true, force: true });

    const orphans = json(sb.spex(["doctor", "--json"]).stdout).orphans.tmuxSessions as string[];
    expect(orphans.sort()).toEqual([lost.tmux_session, legacy.tmux_session].sort());
    expect(json(sb.spex(["doctor", "--json"], { cwd: other }).stdout).orphans.tmuxSessions).toEqual([]);
    expect(hasTmux(sb, theirs.tmux_session) && hasTmux(sb, ours.tmux_session)).toBe(true);
  });
});
