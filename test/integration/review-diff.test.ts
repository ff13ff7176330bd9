// `spex session diff` (issue 17): the session's work against its fork point —
// not main's later commits — as a patch, a stat or JSON files with status and
// line counts; `--worktree` adds the uncommitted work without touching the
// session's index.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox } from "../support/sandbox";
import { commitFiles, newSession, parse, refOf } from "../support/review";

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

const diff = (sel: string, ...flags: string[]) => sb.spex(["session", "diff", sel, ...flags]);

describe("diff", () => {
  test("shows the branch's work against its fork point, not what main did since", () => {
    const s = newSession(sb, "diff me");
    commitFiles(sb, s.worktree, { "feature.txt": "one\ntwo\n" }, "feature");
    commitFiles(sb, sb.repo, { "main-only.txt": "main moved on\n" }, "main moves");
    const r = diff(s.id.slice(0, 8));
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("+++ b/feature.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n");
    expect(r.stdout).not.toContain("main-only.txt");
  });

  test("--json lists files with status and line counts: added, modified, deleted, renamed, binary", () => {
    commitFiles(sb, sb.repo, { "old-name.txt": "a\nb\nc\nd\ne\nf\n", "gone.txt": "bye\n" }, "more files");
    const s = newSession(sb, "many kinds");
    writeFileSync(join(s.worktree, "README.md"), "# changed\nand more\n");
    rmSync(join(s.worktree, "gone.txt"));
    sb.git(["mv", "old-name.txt", "new-name.txt"], s.worktree);
    writeFileSync(join(s.worktree, "blob.bin"), Buffer.from([0, 1, 2, 255, 0]));
    sb.git(["add", "-A"], s.worktree);
    sb.git(["commit", "-q", "-m", "kinds"], s.worktree);
    const r = diff(s.id, "--json");
    expect(r.code).toBe(0);
    const out = parse(r.stdout);
    expect(out).toMatchObject({ id: s.id, branch: s.branch, into: "main", worktree: false, head: refOf(sb, `refs/heads/${s.branch}`), additions: 2, deletions: 2 });
    expect(out.forkPoint).toBe(refOf(sb, "refs/heads/main"));
    const byPath = Object.fromEntries(out.files.map((f: any) => [f.path, f]));
    expect(byPath).toEqual({
      "README.md": { path: "README.md", status: "modified", additions: 2, deletions: 1, binary: false },
      "blob.bin": { path: "blob.bin", status: "added", additions: 0, deletions: 0, binary: true },
      "gone.txt": { path: "gone.txt", status: "deleted", additions: 0, deletions: 1, binary: false },
      "new-name.txt": { path: "new-name.txt", oldPath: "old-name.txt", status: "renamed", additions: 0, deletions: 0, binary: false },
    });
    expect(out.patch).toContain("rename from old-name.txt");
  });

  test("--stat prints a summary instead of the patch", () => {
    const s = newSession(sb, "stat");
    commitFiles(sb, s.worktree, { "a.txt": "1\n2\n3\n" }, "a");
    const r = diff(s.id, "--stat");
    expect(r.stdout).toMatch(/a\.txt \| 3 \+\+\+\n 1 file changed, 3 insertions\(\+\)\n$/);
    expect(r.stdout).not.toContain("@@");
    const j = parse(diff(s.id, "--stat", "--json").stdout);
    expect(j.patch).toBeUndefined();
    expect(j.stat).toContain("a.txt | 3");
  });

  test("--worktree adds staged, unstaged and untracked work (not ignored files) and leaves the session's index as it was", () => {
    const s = newSession(sb, "uncommitted");
    commitFiles(sb, s.worktree, { ".gitignore": "*.log\n", "committed.txt": "c\n" }, "committed");
    writeFileSync(join(s.worktree, "staged.txt"), "s\n");
    sb.git(["add", "staged.txt"], s.worktree);
    writeFileSync(join(s.worktree, "README.md"), "# unstaged edit\n");
    writeFileSync(join(s.worktree, "untracked.txt"), "u\n");
    writeFileSync(join(s.worktree, "noise.log"), "ignored\n");
    const indexFile = sb.git(["rev-parse", "--path-format=absolute", "--git-path", "index"], s.worktree).trim();
    const index = readFileSync(indexFile);
    const status = sb.git(["status", "--porcelain=v1", "--ignored"], s.worktree);

    const committedOnly = parse(diff(s.id, "--json").stdout);
    expect(committedOnly.files.map((f: any) => f.path).sort()).toEqual([".gitignore", "committed.txt"]);
    const all = parse(diff(s.id, "--worktree", "--json").stdout);
    expect(all.files.map((f: any) => f.path).sort()).toEqual([".gitignore", "README.md", "committed.txt", "staged.txt", "untracked.txt"]);
    expect(all.uncommitted.sort()).toEqual(["README.md", "staged.txt", "untracked.txt"]);
    expect(all.patch).toContain("+# unstaged edit");
    expect(all.patch).not.toContain("noise.log");

    expect(readFileSync(indexFile)).toEqual(index);
    expect(sb.git(["status", "--porcelain=v1", "--ignored"], s.worktree)).toBe(status);
  });

  test("--worktree lists a file over the text limit as binary without writing it into the repository; merge --include-uncommitted still commits it whole", () => {
    commitFiles(sb, sb.repo, { "grown.log": "small\n" }, "a small log");
    const s = newSession(sb, "big files");
    // Random bytes do not compress: staging them would add ~17 MiB to .git/objects.
    const big = randomBytes(17 * 1024 * 1024);
    writeFileSync(join(s.worktree, "big.bin"), big);
    writeFileSync(join(s.worktree, "grown.log"), Buffer.concat([big, Buffer.from("grown\n")]));
    writeFileSync(join(s.worktree, "small.txt"), "s\n");
    const blobOf = (path: string) => sb.git(["hash-object", "--", path], s.worktree).trim();
    const stored = (sha: string) => spawnSync("git", ["cat-file", "-e", sha], { cwd: sb.repo }).status === 0;
    const bigSha = blobOf("big.bin");
    const grownSha = blobOf("grown.log");
    const objectKiB = () => {
      const counts = sb.git(["count-objects", "-v"]);
      return Number(/^size: (\d+)/m.exec(counts)![1]) + Number(/^size-pack: (\d+)/m.exec(counts)![1]);
    };
    const before = objectKiB();

    const out = parse(diff(s.id, "--worktree", "--json").stdout);
    const byPath = Object.fromEntries(out.files.map((f: any) => [f.path, f]));
    expect(byPath["big.bin"]).toEqual({ path: "big.bin", status: "added", additions: 0, deletions: 0, binary: true });
    expect(byPath["grown.log"]).toEqual({ path: "grown.log", status: "modified", additions: 0, deletions: 0, binary: true });
    expect(byPath["small.txt"]).toMatchObject({ status: "added", additions: 1, binary: false });
    expect(out.uncommitted.sort()).toEqual(["big.bin", "grown.log", "small.txt"]);
    expect(out.patch).toContain("Binary files /dev/null and b/big.bin differ");
    const stat = diff(s.id, "--worktree", "--stat").stdout;
    expect(stat).toMatch(/big\.bin +\| Bin 0 -> 17825792 bytes\n/);
    expect(stat).toMatch(/grown\.log +\| Bin 6 -> 17825798 bytes\n/);
    expect(stored(bigSha)).toBe(false);
    expect(stored(grownSha)).toBe(false);
    expect(objectKiB() - before).toBeLessThan(64); // the small file and trees, not 17 MiB

    const merged = sb.spex(["session", "merge", s.id, "--include-uncommitted", "--json"]);
    expect(merged.code).toBe(0);
    expect(stored(bigSha)).toBe(true);
    expect(sb.git(["cat-file", "-s", `main:big.bin`]).trim()).toBe(String(big.length));
  });

  test("a session pinned to a base is compared with that base", () => {
    const base = commitFiles(sb, sb.repo, { "base.txt": "base\n" }, "the base");
    commitFiles(sb, sb.repo, { "later.txt": "later\n" }, "after the base");
    const s = newSession(sb, "pinned", ["--no-launch", "--base", base]);
    commitFiles(sb, s.worktree, { "work.txt": "w\n" }, "work");
    const out = parse(diff(s.id, "--json").stdout);
    expect(out.forkPoint).toBe(base);
    expect(out.files.map((f: any) => f.path)).toEqual(["work.txt"]);
  });

  test("a session with no work says so", () => {
    const s = newSession(sb, "idle");
    const r = diff(s.id);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${s.branch}: no changes against`);
  });

  test("control characters in the patch are shown, not sent to the terminal", () => {
    const s = newSession(sb, "escapes");
    commitFiles(sb, s.worktree, { "evil.txt": "title\u001b]0;pwned\u0007\n" }, "escape");
    const r = diff(s.id);
    expect(r.stdout).not.toContain("\u001b");
    expect(r.stdout).toContain("\\x1b]0;pwned\\x07");
  });

  test("a missing branch is refused with branch_missing", () => {
    const s = newSession(sb, "branchless");
    sb.git(["worktree", "remove", "--force", s.worktree]);
    sb.git(["branch", "-D", s.branch]);
    const r = diff(s.id, "--json");
    expect(r.code).toBe(1);
    expect(parse(r.stdout).error.code).toBe("branch_missing");
  });
});
