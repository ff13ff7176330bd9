// Issue 28.4: `diff` tells about uncommitted work it leaves out, and on a
// terminal it is coloured and paged the way git's is (GIT_PAGER, core.pager,
// PAGER, else less with LESS=FRX; --no-pager), never when piped.
import { afterEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, SPEX_BIN, sandbox } from "../support/sandbox";
import { commitFiles, newSession } from "../support/review";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

const ESC = "\u001b[";
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Run spex on a real terminal (a pty from script(1)); what reached the terminal. */
function onTerminal(args: string[], env: Record<string, string> = {}): { code: number; out: string } {
  const command = `stty cols 120 rows 40; exec ${q(SPEX_BIN)} ${args.map(q).join(" ")}`;
  const r = spawnSync("script", ["-qec", command, "/dev/null"], { cwd: sb.repo, env: { ...sb.env, TERM: "xterm-256color", ...env }, encoding: "utf8", input: "" });
  return { code: r.status ?? -1, out: (r.stdout ?? "").replace(/\r\n/g, "\n") };
}

describe("diff and uncommitted work", () => {
  test("a branch without commits but with edits in its worktree says so and points to --worktree", () => {
    sb = sandbox();
    const s = newSession(sb, "edit the docs");
    writeFileSync(join(s.worktree, "README.md"), "# edited\n");
    writeFileSync(join(s.worktree, "notes.txt"), "new\n");
    const r = sb.spex(["session", "diff", s.id]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${s.branch}: no committed changes against`);
    expect(r.stdout).toContain("its worktree has 2 uncommitted files (README.md, notes.txt)");
    expect(r.stdout).toContain(`\`spex session diff ${s.id.slice(0, 8)} --worktree\` shows them`);
    expect(JSON.parse(sb.spex(["session", "diff", s.id, "--json"]).stdout).uncommittedNotShown).toEqual(["README.md", "notes.txt"]);
    expect(JSON.parse(sb.spex(["session", "diff", s.id, "--worktree", "--json"]).stdout).uncommittedNotShown).toEqual([]);
  });

  test("a patch with more work uncommitted says on stderr what it left out; stdout stays the patch", () => {
    sb = sandbox();
    const s = newSession(sb, "edit the docs");
    commitFiles(sb, s.worktree, { "done.txt": "done\n" }, "done");
    writeFileSync(join(s.worktree, "README.md"), "# edited\n");
    const r = sb.spex(["session", "diff", s.id]);
    expect(r.stdout.startsWith("diff --git a/done.txt b/done.txt\n")).toBe(true);
    expect(r.stderr).toBe(`spex: the worktree also has 1 uncommitted file (README.md) not in this diff; \`spex session diff ${s.id.slice(0, 8)} --worktree\` includes them\n`);
  });
});

describe("diff on a terminal", () => {
  function session(): { id: string } {
    sb = sandbox();
    const s = newSession(sb, "edit the docs");
    commitFiles(sb, s.worktree, { "README.md": "# test repo\nmore\n" }, "more");
    return s;
  }

  test("PAGER gets the patch, coloured like git's; piped, neither", () => {
    const s = session();
    const paged = join(sb.dir, "paged");
    const r = onTerminal(["session", "diff", s.id], { PAGER: `tee ${q(paged)}` });
    expect(r.code).toBe(0);
    const text = readFileSync(paged, "utf8");
    expect(text).toContain(`${ESC}1mdiff --git a/README.md b/README.md${ESC}0m`);
    expect(text).toContain(`${ESC}32m+more${ESC}0m`);
    expect(text).toContain(`${ESC}36m@@ -1 +1,2 @@${ESC}0m`);
    const piped = sb.spex(["session", "diff", s.id], { env: { PAGER: `tee ${q(join(sb.dir, "piped"))}` } });
    expect(piped.stdout).toContain("+more");
    expect(piped.stdout).not.toContain(ESC);
    expect(existsSync(join(sb.dir, "piped"))).toBe(false);
  });

  test("core.pager wins over PAGER, GIT_PAGER over both, and --no-pager or PAGER=cat writes straight out", () => {
    const s = session();
    sb.git(["config", "core.pager", `tee ${q(join(sb.dir, "core"))}`]);
    onTerminal(["session", "diff", s.id], { PAGER: `tee ${q(join(sb.dir, "env"))}` });
    expect(existsSync(join(sb.dir, "core"))).toBe(true);
    expect(existsSync(join(sb.dir, "env"))).toBe(false);
    onTerminal(["session", "diff", s.id], { GIT_PAGER: `tee ${q(join(sb.dir, "git"))}` });
    expect(existsSync(join(sb.dir, "git"))).toBe(true);
    sb.git(["config", "--unset", "core.pager"]);
    const direct = onTerminal(["session", "diff", s.id, "--no-pager"], { PAGER: `tee ${q(join(sb.dir, "never"))}` });
    expect(direct.out).toContain(`${ESC}32m+more`);
    expect(existsSync(join(sb.dir, "never"))).toBe(false);
    const plain = onTerminal(["session", "diff", s.id, "--no-color"], { PAGER: "cat" });
    expect(plain.out).toContain("+more");
    expect(plain.out).not.toContain(`${ESC}32m`);
  });

  test("with no pager configured it is less, with LESS=FRX unless LESS is set", () => {
    const s = session();
    const bin = join(sb.dir, "bin");
    mkdirSync(bin);
    const log = join(sb.dir, "less.log");
    writeFileSync(join(bin, "less"), `#!/bin/sh\nprintf 'LESS=%s args=%s\\n' "$LESS" "$*" > ${q(log)}\ncat >> ${q(log)}\n`);
    chmodSync(join(bin, "less"), 0o755);
    const env = { PATH: `${bin}:${sb.env.PATH}` };
    onTerminal(["session", "diff", s.id], env);
    expect(readFileSync(log, "utf8")).toStartWith("LESS=FRX args=\n");
    expect(readFileSync(log, "utf8")).toContain("+more");
    onTerminal(["session", "diff", s.id], { ...env, LESS: "R" });
    expect(readFileSync(log, "utf8")).toStartWith("LESS=R args=\n");
  });
});
