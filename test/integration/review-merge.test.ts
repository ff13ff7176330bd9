// `spex session merge` (issue 17) against real repositories with the built
// binary: each strategy lands what it should on main, a conflict or a dirty
// checkout changes nothing anywhere, a checkout on another branch is never
// touched, uncommitted work is refused or committed on request, and `close`
// accepts a branch once it has landed, whatever the strategy.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { processIdentity } from "../../lib/proc";
import { eventsAfter } from "../../lib/comms";
import { projectStore } from "../../lib/store";
import { type Sandbox, sandbox } from "../support/sandbox";
import { checkoutPrint, commitFiles, newSession, parse, refOf } from "../support/review";
import { spexAsync } from "./backend-support";

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

const merge = (sel: string, ...flags: string[]) => sb.spex(["session", "merge", sel, ...flags, "--json"]);
const close = (sel: string) => sb.spex(["session", "close", sel, "--json"]);
const parents = (rev: string) => sb.git(["rev-list", "--parents", "-n", "1", rev]).trim().split(" ").slice(1);
/** The merge events on a session's timeline. */
const mergeEvents = (id: string) => eventsAfter(projectStore(sb.repo, sb.home), id, 0).filter((e) => e.kind === "merge");

/** Two commits on the session's branch while main moves on by one: the case squash and rebase are for. */
function twoCommitsBehindMain(prompt: string) {
  const s = newSession(sb, prompt);
  commitFiles(sb, s.worktree, { "a.txt": "a\n" }, "first");
  commitFiles(sb, s.worktree, { "b.txt": "b\n" }, "second");
  const before = commitFiles(sb, sb.repo, { "other.txt": "other\n" }, "meanwhile on main");
  return { s, before };
}

describe("landing", () => {
  test("a branch ahead of main fast-forwards main, and the clean main checkout's files follow", () => {
    const s = newSession(sb, "add a feature");
    const tip = commitFiles(sb, s.worktree, { "feature.txt": "feature\n" }, "add feature");
    const r = merge(s.id.slice(0, 8));
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(parse(r.stdout)).toMatchObject({ landing: "fast-forward", into: "main", branch: s.branch, after: tip, commits: 1, checkout: sb.repo, closed: false });
    expect(refOf(sb, "refs/heads/main")).toBe(tip);
    expect(readFileSync(join(sb.repo, "feature.txt"), "utf8")).toBe("feature\n");
    expect(sb.git(["status", "--porcelain"])).toBe("");
    expect(mergeEvents(s.id)).toMatchObject([{ kind: "merge", into: "main", landing: "fast-forward", branchHead: tip }]);
  });

  test("a branch behind a moved main gets a merge commit with both parents", () => {
    const s = newSession(sb, "add a feature");
    const tip = commitFiles(sb, s.worktree, { "feature.txt": "feature\n" }, "add feature");
    const moved = commitFiles(sb, sb.repo, { "other.txt": "other\n" }, "meanwhile on main");
    const r = merge(s.id, "--message", "Land the feature");
    expect(r.code).toBe(0);
    const out = parse(r.stdout);
    expect(out).toMatchObject({ landing: "merge-commit", before: moved });
    expect(parents(out.after)).toEqual([moved, tip]);
    expect(sb.git(["log", "-1", "--format=%s", "main"]).trim()).toBe("Land the feature");
    expect(readFileSync(join(sb.repo, "feature.txt"), "utf8")).toBe("feature\n");
    expect(sb.git(["status", "--porcelain"])).toBe("");
  });

  test("--squash lands one commit on main, and close then accepts the branch as merged", () => {
    const { s, before } = twoCommitsBehindMain("squash me");
    const r = merge(s.id, "--squash");
    expect(r.code).toBe(0);
    const out = parse(r.stdout);
    expect(out).toMatchObject({ landing: "squash", commits: 2 });
    expect(parents(out.after)).toEqual([before]);
    expect(sb.git(["log", "-1", "--format=%B", "main"])).toContain("- first\n- second");
    expect(sb.git(["ls-tree", "--name-only", "main"]).split("\n")).toEqual(expect.arrayContaining(["a.txt", "b.txt", "other.txt"]));
    // The branch's own commits are not on main (a squash copies them), yet close knows they landed.
    const closed = close(s.id);
    expect(closed.stderr).toBe("");
    expect(parse(closed.stdout)).toMatchObject({ closed: true, branch: "deleted", worktree: "removed" });
  });

  test("work committed after a squash merge is still unmerged: close refuses and names only that commit", () => {
    const s = newSession(sb, "keeps working");
    commitFiles(sb, s.worktree, { "a.txt": "a\n" }, "landed work");
    expect(merge(s.id, "--squash").code).toBe(0);
    commitFiles(sb, s.worktree, { "late.txt": "late\n" }, "late work");
    const refused = close(s.id);
    expect(refused.code).toBe(1);
    const err = parse(refused.stdout).error;
    expect(err.code).toBe("branch_unmerged");
    expect(err.commits.map((c: any) => c.subject)).toEqual(["late work"]);
  });

  test("--rebase replays the commits on main in a line, and close accepts the branch", () => {
    const { s, before } = twoCommitsBehindMain("rebase me");
    const r = merge(s.id, "--rebase");
    expect(r.code).toBe(0);
    const out = parse(r.stdout);
    expect(out.landing).toBe("rebase");
    expect(sb.git(["log", "--format=%s", `${before}..main`]).trim().split("\n")).toEqual(["second", "first"]);
    expect(parents(`${out.after}~1`)).toEqual([before]);
    // No worktree of the rebase is left behind.
    expect(sb.git(["worktree", "list", "--porcelain"]).match(/^worktree /gm)!.length).toBe(2);
    expect(parse(close(s.id).stdout)).toMatchObject({ closed: true });
  });

  test("merging a landed branch again says it already landed and changes nothing, whatever the strategy (issue 21 item 11)", () => {
    const { s } = twoCommitsBehindMain("rebase me twice");
    const first = parse(merge(s.id, "--rebase").stdout);
    expect(first.landing).toBe("rebase");
    const main = refOf(sb, "refs/heads/main");
    for (const flags of [["--rebase"], ["--squash"], []]) {
      const again = merge(s.id, ...flags);
      expect(again.code).toBe(0);
      expect(parse(again.stdout)).toMatchObject({ landing: "none", commits: 0, after: "", alreadyLanded: { landing: "rebase", after: first.after, timelineSeq: first.timelineSeq } });
      expect(refOf(sb, "refs/heads/main")).toBe(main);
    }
    expect(mergeEvents(s.id)).toHaveLength(1);
    const human = sb.spex(["session", "merge", s.id, "--rebase"]);
    expect(human.stdout).toContain(`${s.branch} already landed on main (rebase at `);
    expect(human.stdout).toContain("nothing changed");
    // New work on the branch is no longer "landed": it merges as usual.
    commitFiles(sb, s.worktree, { "c.txt": "c\n" }, "third");
    // Only the new commit is replayed (the other two are on main already) and counted.
    expect(parse(merge(s.id, "--rebase").stdout)).toMatchObject({ landing: "rebase", commits: 1, alreadyLanded: null });
    expect(mergeEvents(s.id)).toHaveLength(2);
  });

  test("--ff-only refuses a branch main has moved away from, and changes nothing", () => {
    const s = newSession(sb, "not ff");
    const tip = commitFiles(sb, s.worktree, { "a.txt": "a\n" }, "work");
    const moved = commitFiles(sb, sb.repo, { "other.txt": "other\n" }, "meanwhile");
    const r = merge(s.id, "--ff-only");
    expect(r.code).toBe(1);
    expect(parse(r.stdout).error.code).toBe("merge_not_fast_forward");
    expect([refOf(sb, "refs/heads/main"), refOf(sb, `refs/heads/${s.branch}`)]).toEqual([moved, tip]);
    expect(mergeEvents(s.id)).toEqual([]);
  });

  test("a branch main already contains is a no-op that still lets --close close it", () => {
    const s = newSession(sb, "nothing new");
    const r = merge(s.id, "--close");
    expect(r.code).toBe(0);
    expect(parse(r.stdout)).toMatchObject({ landing: "none", closed: true });
    expect(existsSync(s.worktree)).toBe(false);
  });

  test("two strategies at once is a usage error", () => {
    const s = newSession(sb, "usage");
    const r = sb.spex(["session", "merge", s.id, "--squash", "--rebase"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("[usage]");
  });
});

describe("nothing half-merged, nobody's checkout disturbed", () => {
  test("a conflict names the files and changes nothing: main, the branch, both checkouts, the worktree list", () => {
    const s = newSession(sb, "conflicting work");
    const tip = commitFiles(sb, s.worktree, { "README.md": "# from the session\n", "mine.txt": "mine\n" }, "session edit");
    const moved = commitFiles(sb, sb.repo, { "README.md": "# from main\n" }, "main edit");
    const mainBefore = checkoutPrint(sb, sb.repo);
    const wtBefore = checkoutPrint(sb, s.worktree);
    const worktrees = sb.git(["worktree", "list", "--porcelain"]);
    for (const strategy of [[], ["--squash"], ["--rebase"]]) {
      const r = merge(s.id, ...strategy);
      expect({ strategy, code: r.code }).toEqual({ strategy, code: 1 });
      const err = parse(r.stdout).error;
      expect(err).toMatchObject({ code: "merge_conflict", files: ["README.md"] });
      expect(r.stderr).toContain("README.md");
      expect([refOf(sb, "refs/heads/main"), refOf(sb, `refs/heads/${s.branch}`)]).toEqual([moved, tip]);
      expect(checkoutPrint(sb, sb.repo)).toEqual(mainBefore);
      expect(checkoutPrint(sb, s.worktree)).toEqual(wtBefore);
      expect(sb.git(["worktree", "list", "--porcelain"])).toBe(worktrees);
    }
    expect(mergeEvents(s.id)).toEqual([]);
  });

  test("a main checkout with uncommitted changes on main is left untouched and the merge refuses", () => {
    const s = newSession(sb, "work");
    const tip = commitFiles(sb, s.worktree, { "feature.txt": "feature\n" }, "feature");
    const main = refOf(sb, "refs/heads/main");
    writeFileSync(join(sb.repo, "README.md"), "# my own edit, not committed\n");
    writeFileSync(join(sb.repo, "scratch.txt"), "untracked scratch\n");
    const before = checkoutPrint(sb, sb.repo);
    const r = merge(s.id);
    expect(r.code).toBe(1);
    expect(parse(r.stdout).error).toMatchObject({ code: "main_checkout_dirty", checkout: sb.repo, files: ["README.md"] });
    expect(checkoutPrint(sb, sb.repo)).toEqual(before);
    expect([refOf(sb, "refs/heads/main"), refOf(sb, `refs/heads/${s.branch}`)]).toEqual([main, tip]);
  });

  test("a rename staged in the main checkout is named as old -> new in the refusal, not as a clipped old name", () => {
    const s = newSession(sb, "work");
    commitFiles(sb, s.worktree, { "feature.txt": "feature\n" }, "feature");
    sb.git(["mv", "README.md", "GUIDE.md"]);
    const r = merge(s.id);
    expect(r.code).toBe(1);
    const err = parse(r.stdout).error;
    expect(err).toMatchObject({ code: "main_checkout_dirty", files: ["README.md -> GUIDE.md"] });
    expect(err.message).toContain("(README.md -> GUIDE.md)");
  });

  test("an untracked file in the way in the main checkout refuses the merge and changes nothing", () => {
    const s = newSession(sb, "work");
    commitFiles(sb, s.worktree, { "feature.txt": "from the session\n" }, "feature");
    const main = refOf(sb, "refs/heads/main");
    writeFileSync(join(sb.repo, "feature.txt"), "the user's own untracked file\n");
    const before = checkoutPrint(sb, sb.repo);
    const r = merge(s.id);
    expect(r.code).toBe(1);
    expect(parse(r.stdout).error.code).toBe("main_checkout_dirty");
    expect(checkoutPrint(sb, sb.repo)).toEqual(before);
    expect(refOf(sb, "refs/heads/main")).toBe(main);
  });

  test("a main checkout on another branch, dirty, is never touched: main moves by ref alone", () => {
    writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ mainBranch: "main" }));
    sb.git(["add", "spexcode.json"]);
    sb.git(["commit", "-q", "-m", "config"]);
    const s = newSession(sb, "work");
    const tip = commitFiles(sb, s.worktree, { "feature.txt": "feature\n" }, "feature");
    sb.git(["checkout", "-q", "-b", "my-experiment"]);
    writeFileSync(join(sb.repo, "README.md"), "# experimenting, uncommitted\n");
    const before = checkoutPrint(sb, sb.repo);
    const r = merge(s.id);
    expect(r.stderr).toBe("");
    expect(parse(r.stdout)).toMatchObject({ landing: "fast-forward", into: "main", after: tip, checkout: "" });
    expect(refOf(sb, "refs/heads/main")).toBe(tip);
    expect(checkoutPrint(sb, sb.repo)).toEqual(before);
    expect(existsSync(join(sb.repo, "feature.txt"))).toBe(false);
  });

  test("a detached main checkout is not touched either", () => {
    const s = newSession(sb, "work");
    const tip = commitFiles(sb, s.worktree, { "feature.txt": "feature\n" }, "feature");
    sb.git(["checkout", "-q", "--detach"]);
    const before = checkoutPrint(sb, sb.repo);
    const r = merge(s.id, "--into", "main");
    expect(r.code).toBe(0);
    expect(refOf(sb, "refs/heads/main")).toBe(tip);
    expect(checkoutPrint(sb, sb.repo)).toEqual(before);
  });
});

describe("a merge killed half-way (issue 21 item 11)", () => {
  test("leaves temp folders named after it, which the next merge removes (and the worktree a rebase left); a live maker's folder and a folder not named so stay", () => {
    const tmp = join(sb.dir, "tmp");
    mkdirSync(tmp);
    const run = (sel: string, crash: string, ...flags: string[]) =>
      sb.spex(["session", "merge", sel, ...flags, "--json"], { env: { TMPDIR: tmp, ...(crash ? { SPEX_TEST_CRASH_AT: crash } : {}) } });
    const listed = () => readdirSync(tmp).sort();
    // Planted first: one of a live process (this test runner), one of an older spex (mkdtemp's bare name).
    const mine = processIdentity(process.pid)!;
    const live = join(tmp, `spex-index-${process.pid}-${mine.start}-abc123`);
    const older = join(tmp, "spex-index-Zx81Qp");
    mkdirSync(live);
    mkdirSync(older);

    const s = newSession(sb, "half done", []);
    writeFileSync(join(s.worktree, "work.txt"), "uncommitted\n");
    expect(run(s.id, "index", "--include-uncommitted").code).not.toBe(0);
    const left = listed().filter((n) => !["spex-index-Zx81Qp", basename(live)].includes(n));
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(/^spex-index-\d+-@?\d+-\w{6}$/);

    const { s: r, before } = twoCommitsBehindMain("rebase me");
    expect(run(r.id, "rebase", "--rebase").code).not.toBe(0);
    expect(listed().filter((n) => n.startsWith("spex-rebase-"))).toHaveLength(1);
    expect(sb.git(["worktree", "list", "--porcelain"]).match(/^worktree /gm)!.length).toBe(4);
    expect(refOf(sb, "refs/heads/main")).toBe(before);

    // The next merges land, and sweep what the killed ones left: the folders and the listed worktree.
    expect(run(s.id, "", "--include-uncommitted").code).toBe(0);
    expect(run(r.id, "", "--rebase").code).toBe(0);
    expect(listed()).toEqual([basename(live), "spex-index-Zx81Qp"].sort());
    expect(sb.git(["worktree", "list", "--porcelain"]).match(/^worktree /gm)!.length).toBe(3);
  });
});

describe("uncommitted work", () => {
  test("refuses with worktree_dirty and changes nothing; --include-uncommitted commits exactly the work, then lands it", () => {
    const s = newSession(sb, "half done", []); // launched: the shell harness renders nothing, so the worktree holds only the work
    sb.git(["config", "core.excludesFile", join(sb.dir, "excludes")]);
    writeFileSync(join(sb.dir, "excludes"), "*.log\n");
    commitFiles(sb, s.worktree, { "done.txt": "done\n" }, "the committed part");
    writeFileSync(join(s.worktree, "README.md"), "# edited, not committed\n");
    writeFileSync(join(s.worktree, "new.txt"), "untracked\n");
    writeFileSync(join(s.worktree, "build.log"), "ignored\n");
    const tip = refOf(sb, `refs/heads/${s.branch}`);
    const main = refOf(sb, "refs/heads/main");
    const before = checkoutPrint(sb, s.worktree);

    const refused = merge(s.id);
    expect(refused.code).toBe(1);
    expect(parse(refused.stdout).error).toMatchObject({ code: "worktree_dirty", files: ["README.md", "new.txt"] });
    expect(checkoutPrint(sb, s.worktree)).toEqual(before);
    expect([refOf(sb, "refs/heads/main"), refOf(sb, `refs/heads/${s.branch}`)]).toEqual([main, tip]);

    const r = merge(s.id, "--include-uncommitted");
    expect(r.stderr).toBe("");
    const out = parse(r.stdout);
    expect(out.workCommit).toMatch(/^[0-9a-f]{40}$/);
    expect(parents(out.workCommit)).toEqual([tip]);
    expect(refOf(sb, `refs/heads/${s.branch}`)).toBe(out.workCommit);
    expect(refOf(sb, "refs/heads/main")).toBe(out.workCommit);
    expect(sb.git(["show", "--name-status", "--format=", out.workCommit]).trim().split("\n").sort()).toEqual(["A\tnew.txt", "M\tREADME.md"]);
    // The worktree now matches its branch; the ignored file stays, uncommitted, where it was.
    expect(sb.git(["status", "--porcelain", "--ignored"], s.worktree)).toBe("!! build.log\n");
    expect(readFileSync(join(sb.repo, "README.md"), "utf8")).toBe("# edited, not committed\n");
  });

  test("a refusal reads none of the work: a big untracked file is not written into the repository", () => {
    const s = newSession(sb, "big and dirty");
    // Random bytes do not compress: staging them would add ~17 MiB to .git/objects.
    writeFileSync(join(s.worktree, "big.bin"), randomBytes(17 * 1024 * 1024));
    const sha = sb.git(["hash-object", "--", "big.bin"], s.worktree).trim();
    const refused = merge(s.id);
    expect(parse(refused.stdout).error).toMatchObject({ code: "worktree_dirty", files: ["big.bin"] });
    expect(spawnSync("git", ["cat-file", "-e", sha], { cwd: sb.repo }).status).not.toBe(0);
  });
});

describe("--close", () => {
  test("closes a running session once its branch landed: row, worktree and branch gone, main has the work", () => {
    const s = newSession(sb, "finish and close", []);
    const tip = commitFiles(sb, s.worktree, { "feature.txt": "feature\n" }, "feature");
    const r = merge(s.id, "--close");
    expect(r.stderr).toBe("");
    expect(parse(r.stdout)).toMatchObject({ landing: "fast-forward", closed: true, close: { worktree: "removed", branch: "deleted" } });
    expect(refOf(sb, "refs/heads/main")).toBe(tip);
    expect(existsSync(s.worktree)).toBe(false);
    expect(sb.git(["branch", "--list", s.branch])).toBe("");
    expect(parse(sb.spex(["session", "ls", "--all", "--json"]).stdout)).toEqual([]);
  });

  test("a refused merge closes nothing", () => {
    const s = newSession(sb, "conflict then close");
    commitFiles(sb, s.worktree, { "README.md": "# session\n" }, "session");
    commitFiles(sb, sb.repo, { "README.md": "# main\n" }, "main");
    const r = merge(s.id, "--close");
    expect(parse(r.stdout).error.code).toBe("merge_conflict");
    expect(existsSync(s.worktree)).toBe(true);
    expect(parse(sb.spex(["session", "ls", "--all", "--json"]).stdout).length).toBe(1);
  });
});

describe("human output", () => {
  test("says what landed where, and that the checkout moved", () => {
    const s = newSession(sb, "text output");
    commitFiles(sb, s.worktree, { "f.txt": "f\n" }, "f");
    const r = sb.spex(["session", "merge", s.id]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^merged ${s.branch} into main \\(fast-forward, 1 commit\\): [0-9a-f]{10}\\.\\.[0-9a-f]{10}\\nthe checkout at ${sb.repo} moved with it\\n$`));
  });
});

describe("at fleet scale", () => {
  test("twelve sessions merged at once all land: main ends with every session's work, and no update is lost", async () => {
    writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ sessions: { maxActive: 50 } }));
    const made = Array.from({ length: 12 }, (_, i) => newSession(sb, `parallel work ${i}`));
    made.forEach((s, i) => commitFiles(sb, s.worktree, { [`work-${i}.txt`]: `${i}\n` }, `work ${i}`));
    const runs = await Promise.all(made.map((s, i) => spexAsync(sb, ["session", "merge", s.id, ...(i % 3 === 1 ? ["--squash"] : i % 3 === 2 ? ["--rebase"] : []), "--json"])));
    expect(runs.map((r) => [r.code, r.stderr])).toEqual(made.map(() => [0, ""]));
    const files = sb.git(["ls-tree", "--name-only", "main"]).split("\n").filter((f) => f.startsWith("work-"));
    expect(files.sort()).toEqual(made.map((_, i) => `work-${i}.txt`).sort());
    // Every merge built on the one before it: the main branch is one line of landings, each with its own `before`.
    const befores = runs.map((r) => parse(r.stdout).before);
    expect(new Set(befores).size).toBe(12);
    expect(sb.git(["status", "--porcelain"])).toBe("?? spexcode.local.json\n");
    for (const s of made) expect(parse(close(s.id).stdout)).toMatchObject({ closed: true });
  });
});
