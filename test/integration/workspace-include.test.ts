// The files git ignores (issue 26 item 2): `include` in spexcode.json and
// `.worktreeinclude` pick ignored files of the main checkout to copy into a
// new worktree; regular files only, never through a link on either side.
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, madeBySpex, sandbox } from "../support/sandbox";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

function ignoring(s: Sandbox, patterns: string): void {
  writeFileSync(join(s.repo, ".gitignore"), patterns);
  s.git(["add", ".gitignore"]);
  s.git(["commit", "-q", "-m", "ignore"]);
}

describe("included files", () => {
  test("an ignored .env and the config's matches are copied from the main checkout, listed, and not counted as work by close", () => {
    sb = sandbox();
    ignoring(sb, ".env\nconfig/local/\nbig.bin\nspexcode.local.json\n");
    writeFileSync(join(sb.repo, ".env"), "API_KEY=main-secret\n");
    chmodSync(join(sb.repo, ".env"), 0o600);
    mkdirSync(join(sb.repo, "config", "local"), { recursive: true });
    writeFileSync(join(sb.repo, "config", "local", "db.json"), '{"port": 5432}\n');
    writeFileSync(join(sb.repo, "config", "local", "notes.txt"), "not asked for\n");
    writeFileSync(join(sb.repo, "big.bin"), "x".repeat(64));
    writeFileSync(join(sb.repo, ".worktreeinclude"), "# copied into every session\n.env\nbig.bin\n");
    writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ include: ["config/local/*.json"], includeMaxFileBytes: 32 }));

    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "use the env"]);
    expect(r.code).toBe(0);
    const created = JSON.parse(r.stdout);
    expect(created.included.copied.map((c: { path: string }) => c.path)).toEqual([".env", "config/local/db.json"]);
    expect(created.included.skipped).toEqual([{ path: "big.bin", reason: "64 bytes, over includeMaxFileBytes (32)" }]);
    const wt = created.worktree_path;
    expect(readFileSync(join(wt, ".env"), "utf8")).toBe("API_KEY=main-secret\n");
    expect(statSync(join(wt, ".env")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(wt, "config", "local", "db.json"), "utf8")).toBe('{"port": 5432}\n');
    expect(existsSync(join(wt, "config", "local", "notes.txt"))).toBe(false);
    expect(existsSync(join(wt, "big.bin"))).toBe(false);

    const show = JSON.parse(sb.spex(["session", "show", created.session_id, "--json"]).stdout);
    expect(show.workspace.included.copied.map((c: { path: string }) => c.path)).toEqual([".env", "config/local/db.json"]);
    expect(sb.spex(["session", "show", created.session_id]).stdout).toContain("included .env, config/local/db.json");

    // The copies as spex made them are the main checkout's files, not the session's work.
    const closed = sb.spex(["session", "close", created.session_id, "--json"]);
    expect(closed.stderr).toBe("");
    expect(closed.code).toBe(0);
    expect(existsSync(wt)).toBe(false);
    // The originals stay where they were.
    expect(readFileSync(join(sb.repo, ".env"), "utf8")).toBe("API_KEY=main-secret\n");
  });

  test("an included file the session changed is its work: a plain close refuses over it", () => {
    sb = sandbox();
    ignoring(sb, ".env\n");
    writeFileSync(join(sb.repo, ".env"), "A=1\n");
    writeFileSync(join(sb.repo, ".worktreeinclude"), ".env\n");
    const created = JSON.parse(sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "edit the env"]).stdout);
    writeFileSync(join(created.worktree_path, ".env"), "A=2\n");
    const closed = sb.spex(["session", "close", created.session_id, "--json"]);
    expect(closed.code).toBe(1);
    expect(closed.stderr).toContain(".env");
    expect(existsSync(created.worktree_path)).toBe(true);
  });

  test("a .env that is a link in the main checkout is not followed: left out, with the reason", () => {
    sb = sandbox();
    ignoring(sb, ".env\n");
    const secret = join(sb.dir, "secret-elsewhere");
    writeFileSync(secret, "FROM_A_LINK=1\n");
    symlinkSync(secret, join(sb.repo, ".env"));
    writeFileSync(join(sb.repo, ".worktreeinclude"), ".env\n");
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "no links"]);
    expect(r.code).toBe(0);
    const created = JSON.parse(r.stdout);
    expect(created.included.copied).toEqual([]);
    expect(created.included.skipped).toEqual([{ path: ".env", reason: "is a symbolic link in the main checkout (never followed)" }]);
    expect(existsSync(join(created.worktree_path, ".env"))).toBe(false);
    expect(sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "again"]).stderr).toContain("spex: not copied into the worktree: .env (is a symbolic link in the main checkout");
  });

  test("a link the base branch planted where an included file goes is refused (unsafe_path), nothing written through it, nothing left", () => {
    sb = sandbox();
    ignoring(sb, ".env\n");
    const target = join(sb.dir, "outside-target");
    writeFileSync(target, "untouched\n");
    sb.git(["checkout", "-q", "-b", "planted"]);
    symlinkSync(target, join(sb.repo, ".env"));
    sb.git(["add", "-f", ".env"]);
    sb.git(["commit", "-q", "-m", "a link where .env goes"]);
    sb.git(["checkout", "-q", "main"]);
    writeFileSync(join(sb.repo, ".env"), "API_KEY=main-secret\n");
    writeFileSync(join(sb.repo, ".worktreeinclude"), ".env\n");
    const before = madeBySpex(sb);
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--base", "planted", "--json", "planted link"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("[unsafe_path]");
    expect(readFileSync(target, "utf8")).toBe("untouched\n");
    expect(madeBySpex(sb)).toEqual(before);
  });
});
