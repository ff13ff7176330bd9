// close (DESIGN.md §6): refuse before mutating, stop under the leaf guard,
// prove no pane is left, then worktree, branch and record, in that order.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isRevoked } from "../../lib/comms";
import { projectStore } from "../../lib/store";
import { type Sandbox, sandbox } from "../support/sandbox";
import { alive, branchExists, commitIn, hasTmux, json, recordFile, seedLive, sessionDir, worktreeList } from "../support/teardown";

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

const close = (sel: string, ...flags: string[]) => sb.spex(["session", "close", sel, ...flags, "--json"]);

describe("close", () => {
  test("a record whose agent pid names no live process closes record-only: worktree, branch, tmux session and record are gone", () => {
    const s = seedLive(sb, { agent: "dead" });
    const r = close(s.id.slice(0, 8));
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toMatchObject({ id: s.id, closed: true, leaf: "dead", tmux: "killed", worktree: "removed", branch: "deleted" });
    expect(hasTmux(sb, s.tmuxName)).toBe(false);
    expect(existsSync(s.worktree)).toBe(false);
    expect(branchExists(sb, s.branch)).toBe(false);
    expect(existsSync(sessionDir(sb, s.id))).toBe(false);
    expect(json(sb.spex(["session", "ls", "--all", "--json"]).stdout)).toEqual([]);
  });

  test("close revokes the closed session as a sender; a refused close does not", () => {
    const store = projectStore(sb.repo, sb.home);
    const refused = seedLive(sb, { agent: "dead", tmux: false });
    writeFileSync(join(refused.worktree, "wip.txt"), "wip\n");
    expect(close(refused.id).code).toBe(1);
    expect(isRevoked(store, refused.id)).toBe(false);
    const s = seedLive(sb, { agent: "dead", tmux: false });
    expect(json(close(s.id).stdout)).toMatchObject({ senderRevoked: true });
    expect(isRevoked(store, s.id)).toBe(true);
  });

  test("close terminates an owned agent before removing anything", () => {
    const s = seedLive(sb, { agent: "owned" });
    const r = close(s.id);
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toMatchObject({ leaf: "terminated", pid: s.pid });
    expect(alive(s.pid)).toBe(false);
    expect(hasTmux(sb, s.tmuxName)).toBe(false);
    expect(worktreeList(sb)).toEqual([sb.repo]);
  });

  test("without tmux on PATH close refuses (tmux_missing) before stopping the agent, even forced; with tmux back it closes", () => {
    const s = seedLive(sb, { agent: "owned" });
    const bin = join(sb.dir, "no-tmux-bin");
    mkdirSync(bin);
    // git for the close's facts, ps for process identity under make test-portable.
    for (const tool of ["sh", "git", "ps"]) {
      const found = spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).stdout.trim();
      if (found) symlinkSync(found, join(bin, tool));
    }
    const r = sb.spex(["session", "close", s.id, "--force", "--json"], { env: { PATH: bin } });
    expect(r.code).toBe(1);
    expect(json(r.stdout).error.code).toBe("tmux_missing");
    expect(alive(s.pid)).toBe(true);
    expect(hasTmux(sb, s.tmuxName)).toBe(true);
    expect(existsSync(s.worktree)).toBe(true);
    expect(existsSync(sessionDir(sb, s.id))).toBe(true);
    expect(json(close(s.id).stdout)).toMatchObject({ leaf: "terminated", worktree: "removed" });
    expect(hasTmux(sb, s.tmuxName)).toBe(false);
  });

  test("close refuses a dirty worktree, lists the files, and changes nothing; --force then removes everything", () => {
    const s = seedLive(sb, { agent: "owned" });
    writeFileSync(join(s.worktree, "README.md"), "edited\n");
    writeFileSync(join(s.worktree, "notes.txt"), "new file\n");
    const before = readFileSync(recordFile(sb, s.id));

    const refused = close(s.id);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("[worktree_dirty]");
    expect(refused.stderr).toContain("README.md");
    expect(json(refused.stdout).error).toMatchObject({ code: "worktree_dirty", files: [" M README.md", "?? notes.txt"] });
    expect(alive(s.pid)).toBe(true);
    expect(hasTmux(sb, s.tmuxName)).toBe(true);
    expect(readFileSync(join(s.worktree, "notes.txt"), "utf8")).toBe("new file\n");
    expect(branchExists(sb, s.branch)).toBe(true);
    expect(readFileSync(recordFile(sb, s.id))).toEqual(before);

    const forced = close(s.id, "--force");
    expect(forced.code).toBe(0);
    expect(json(forced.stdout)).toMatchObject({ forced: true, worktree: "removed", branch: "deleted", discarded: { files: [" M README.md", "?? notes.txt"] } });
    expect(alive(s.pid)).toBe(false);
    expect(hasTmux(sb, s.tmuxName)).toBe(false);
    expect(existsSync(s.worktree)).toBe(false);
    expect(branchExists(sb, s.branch)).toBe(false);
    expect(existsSync(sessionDir(sb, s.id))).toBe(false);
    expect(worktreeList(sb)).toEqual([sb.repo]);
    expect(sb.git(["worktree", "list", "--porcelain"])).not.toContain("prunable");
  });

  test("in a repository that tracks .gemini/settings.json, spex's own hooks there are not work: close needs no --force; an edit of anyone else's to that file still refuses", () => {
    writeFileSync(join(sb.repo, ".gitignore"), "spexcode.local.json\n");
    sb.git(["add", ".gitignore"]);
    mkdirSync(join(sb.repo, ".gemini"));
    writeFileSync(join(sb.repo, ".gemini", "settings.json"), '{"theme": "dark", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo mine"}]}]}}\n');
    sb.git(["add", ".gemini/settings.json"]);
    sb.git(["commit", "-q", "-m", "project settings"]);
    writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ launchers: { gm: { harness: "gemini", command: "sh -c 'exec sleep 600' gm" } } }));
    const made = () => json(sb.spex(["session", "new", "--launcher", "gm", "--no-launch", "--json", "x"]).stdout) as { session_id: string; worktree_path: string };

    const only = made();
    expect(readFileSync(join(only.worktree_path, ".gemini", "settings.json"), "utf8")).toContain("spex-agent-hook");
    const closed = close(only.session_id);
    expect({ code: closed.code, stderr: closed.stderr }).toEqual({ code: 0, stderr: "" });
    expect(existsSync(only.worktree_path)).toBe(false);

    const edited = made();
    const file = join(edited.worktree_path, ".gemini", "settings.json");
    writeFileSync(file, readFileSync(file, "utf8").replace('"dark"', '"light"'));
    const refused = close(edited.session_id);
    expect(refused.code).toBe(1);
    expect(json(refused.stdout).error).toMatchObject({ code: "worktree_dirty", files: [" M .gemini/settings.json"] });
  });

  test("merge --include-uncommitted commits the session's work but not spex's hooks in a tracked .gemini/settings.json (this machine's paths never reach main)", () => {
    writeFileSync(join(sb.repo, ".gitignore"), "spexcode.local.json\n");
    mkdirSync(join(sb.repo, ".gemini"));
    const settings = '{"theme": "dark"}\n';
    writeFileSync(join(sb.repo, ".gemini", "settings.json"), settings);
    sb.git(["add", ".gitignore", ".gemini/settings.json"]);
    sb.git(["commit", "-q", "-m", "project settings"]);
    writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ launchers: { gm: { harness: "gemini", command: "sh -c 'exec sleep 600' gm" } } }));
    const s = json(sb.spex(["session", "new", "--launcher", "gm", "--no-launch", "--json", "x"]).stdout) as { session_id: string; worktree_path: string };
    writeFileSync(join(s.worktree_path, "work.txt"), "the work\n");
    const merged = sb.spex(["session", "merge", s.session_id, "--include-uncommitted", "--json"]);
    expect({ code: merged.code, stderr: merged.stderr }).toEqual({ code: 0, stderr: "" });
    const main = sb.git(["rev-parse", "--abbrev-ref", "HEAD"]).trim();
    expect(sb.git(["show", `${main}:work.txt`])).toBe("the work\n");
    expect(sb.git(["show", `${main}:.gemini/settings.json`])).toBe(settings);
  });

  test("close refuses a branch with commits not on main, listing them, and keeps everything", () => {
    const s = seedLive(sb, { agent: "dead", tmux: false });
    commitIn(sb, s.worktree, "feature.txt", "add the feature");
    const r = close(s.id);
    expect(r.code).toBe(1);
    const err = json(r.stdout).error;
    expect(err.code).toBe("branch_unmerged");
    expect(err.commits.map((c: { subject: string }) => c.subject)).toEqual(["add the feature"]);
    expect(r.stderr).toContain("add the feature");
    expect(existsSync(s.worktree)).toBe(true);
    expect(branchExists(sb, s.branch)).toBe(true);
    expect(existsSync(recordFile(sb, s.id))).toBe(true);
  });

  test("close accepts a branch whose commits were merged into main", () => {
    const s = seedLive(sb, { agent: "dead", tmux: false });
    commitIn(sb, s.worktree, "feature.txt", "add the feature");
    sb.git(["merge", "-q", "--ff-only", s.branch]);
    const r = close(s.id);
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toMatchObject({ branch: "deleted", discarded: { commits: [] } });
  });

  test("close refuses leaf_unprovable for a live pid of another identity and keeps everything", () => {
    const s = seedLive(sb, { agent: "other" });
    try {
      const r = close(s.id, "--force");
      expect(r.code).toBe(1);
      expect(json(r.stdout).error.code).toBe("leaf_unprovable");
      expect(alive(s.pid)).toBe(true);
      expect(hasTmux(sb, s.tmuxName)).toBe(true);
      expect(existsSync(s.worktree)).toBe(true);
      expect(existsSync(recordFile(sb, s.id))).toBe(true);
    } finally {
      s.stranger?.kill("SIGKILL");
    }
  });

  test("a retired record closes record-only and keeps an unmerged branch unless --force", () => {
    const kept = seedLive(sb, { agent: "none", tmux: false });
    commitIn(sb, kept.worktree, "work.txt", "unmerged work");
    rmSync(kept.worktree, { recursive: true, force: true });
    const r = close(kept.id);
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toMatchObject({ retired: true, worktree: "pruned", branch: "kept" });
    expect(branchExists(sb, kept.branch)).toBe(true);
    expect(existsSync(sessionDir(sb, kept.id))).toBe(false);
    expect(worktreeList(sb)).toEqual([sb.repo]);

    const forced = seedLive(sb, { agent: "none", tmux: false });
    commitIn(sb, forced.worktree, "work.txt", "more unmerged work");
    rmSync(forced.worktree, { recursive: true, force: true });
    const f = close(forced.id, "--force");
    expect(json(f.stdout)).toMatchObject({ retired: true, branch: "deleted", discarded: { commits: [{ subject: "more unmerged work" }] } });
    expect(branchExists(sb, forced.branch)).toBe(false);
  });

  test("close of a corrupt record refuses loudly, reports its residues and touches nothing", () => {
    const s = seedLive(sb, { agent: "owned" });
    const file = recordFile(sb, s.id);
    const bytes = readFileSync(file).subarray(0, readFileSync(file).indexOf("agent_start"));
    writeFileSync(file, bytes);
    const r = close(s.id, "--force");
    expect(r.code).toBe(1);
    const err = json(r.stdout).error;
    expect(err.code).toBe("record_corrupt");
    expect(err.residues).toMatchObject({
      worktree: { path: s.worktree, present: true },
      branch: { name: s.branch, present: true },
      tmuxSession: { name: s.tmuxName, present: true },
    });
    expect(r.stderr).toContain("spex session quarantine");
    expect(alive(s.pid)).toBe(true);
    expect(hasTmux(sb, s.tmuxName)).toBe(true);
    expect(existsSync(s.worktree)).toBe(true);
    expect(readFileSync(file)).toEqual(bytes);
  });

  test("close refuses a locked worktree and changes nothing; --force removes it", () => {
    const s = seedLive(sb, { agent: "dead", tmux: false });
    sb.git(["worktree", "lock", s.worktree]);
    expect(json(close(s.id).stdout).error.code).toBe("worktree_locked");
    expect(existsSync(s.worktree)).toBe(true);
    expect(json(close(s.id, "--force").stdout)).toMatchObject({ worktree: "removed", branch: "deleted" });
    expect(worktreeList(sb)).toEqual([sb.repo]);
  });

  test("close refuses a branch checked out in another checkout and changes nothing", () => {
    const s = seedLive(sb, { agent: "dead", tmux: false });
    rmSync(s.worktree, { recursive: true, force: true });
    sb.git(["worktree", "prune"]);
    sb.git(["checkout", "-q", s.branch]);
    const r = close(s.id);
    expect(json(r.stdout).error.code).toBe("branch_checked_out");
    expect(existsSync(recordFile(sb, s.id))).toBe(true);
  });
});

describe("close over a create receipt it cannot retire", () => {
  test("a folder planted where the receipt belongs is refused as not spex's, with advice to look at it, quoted", () => {
    // A home whose path needs quoting: every path the refusal prints must paste as one word.
    const home = join(sb.dir, "spex home");
    const spex = (args: string[]) => sb.spex(args, { env: { SPEX_HOME: home } });
    const made = spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "planted receipt"]);
    expect(made.code).toBe(0);
    const id = json(made.stdout).session_id as string;
    const planted = join(projectStore(sb.repo, home).receiptsDir, `${id}.json`);
    mkdirSync(planted, { recursive: true });
    writeFileSync(join(planted, "notes.txt"), "someone's\n");
    const r = spex(["session", "close", id, "--json"]);
    expect(r.code).toBe(1);
    const err = json(r.stdout).error;
    expect(err.code).toBe("receipt_stuck");
    expect(err.message).toContain("a folder stands where");
    expect(err.message).toContain("nothing was changed");
    expect(err.hint).toContain(`ls -la '${planted}'`);
    expect(err.hint).not.toMatch(/\bremove\b|\brm\b/);
    // Nothing was touched: the folder and what is in it, the session and its worktree.
    expect(readFileSync(join(planted, "notes.txt"), "utf8")).toBe("someone's\n");
    expect(json(spex(["session", "ls", "--json"]).stdout).map((row: { id: string }) => row.id)).toContain(id);
  });
});

test("a file standing where the receipts folder belongs holds no receipt: close goes through", () => {
  const made = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "no receipts folder"]);
  const id = json(made.stdout).session_id as string;
  const receipts = projectStore(sb.repo, sb.home).receiptsDir;
  rmSync(receipts, { recursive: true, force: true });
  writeFileSync(receipts, "not a folder\n");
  const r = close(id);
  expect(r.stderr).toBe("");
  expect(json(r.stdout)).toMatchObject({ closed: true });
  expect(readFileSync(receipts, "utf8")).toBe("not a folder\n");
});
