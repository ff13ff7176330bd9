// What spex prints for a person to paste is run here the way they would run
// it: through sh, bash or zsh, with a stub `spex` on PATH that only records
// the words it got. A printed line must give back exactly the words the user
// typed, and run nothing else.
import { afterEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Sandbox, SPEX_BIN, makeRepo, sandbox } from "../support/sandbox";
import { shellWord } from "../../lib/tmux/quote";
import { backendPaths, readToken } from "../../lib/backend/endpoint";
import { installPostCheckout } from "../../lib/hooks/post-checkout";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

/** A `spex` on PATH that writes each argument it got, NUL-terminated, to `file`. */
function recordingSpex(dir: string, file: string): string {
  const bin = join(dir, "stub-bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, "spex"), `#!/bin/sh\nfor a in "$@"; do printf '%s\\0' "$a"; done > ${shellWord(file)}\n`);
  chmodSync(join(bin, "spex"), 0o755);
  return bin;
}

/** Run `line` in `shell` with the stub first on PATH; the words the stub got (undefined if it never ran). */
function pasted(shell: string, line: string, cwd: string): string[] | undefined {
  const file = join(cwd, "argv");
  const bin = recordingSpex(cwd, file);
  const r = spawnSync(shell, ["-c", line], { cwd, env: { PATH: `${bin}:${process.env.PATH}`, HOME: cwd }, encoding: "utf8" });
  expect({ line, stderr: r.stderr }).toEqual({ line, stderr: "" });
  if (!existsSync(file)) return undefined;
  return readFileSync(file, "utf8").split("\0").slice(0, -1);
}

describe("did you mean, pasted", () => {
  test("the suggested command gives back the user's quoted words and runs nothing else, in sh, bash and zsh", () => {
    sb = sandbox();
    const pwn = join(sb.dir, "PWN");
    const words = [`fix it; touch ${pwn}`, "$(touch x)", "it's `here`", "=spex", "#no comment", "~", "a\nb"];
    for (const word of words) {
      const r = sb.spex(["sesion", "new", word, "--dry-run"]);
      expect(r.code).toBe(2);
      const fix = /did you mean `(spex session new .*)`\?/s.exec(r.stderr)?.[1];
      expect({ word, fix: fix !== undefined }).toEqual({ word, fix: true });
      // One line: a word with a newline is written with its escape.
      expect(fix!.includes("\n")).toBe(false);
      for (const shell of ["sh", "bash", "zsh"]) {
        if (shell === "sh" && word.includes("\n")) continue; // dash has no $'…'
        expect({ shell, word, argv: pasted(shell, fix!, sb.dir) }).toEqual({ shell, word, argv: ["session", "new", word, "--dry-run"] });
        expect(existsSync(pwn)).toBe(false);
        expect(existsSync(join(sb.dir, "x"))).toBe(false);
      }
    }
  });
});

describe("doctor's advice, pasted", () => {
  test("a folder named with newlines and a fake `remove:` line shows escaped on one line, and its advice removes just that folder", () => {
    sb = sandbox();
    const fake = "\n    remove: rm -rf ~\n";
    const empty = join(sb.repo, ".worktrees", `empty${fake}`);
    const full = join(sb.repo, ".worktrees", `full${fake}`);
    mkdirSync(empty, { recursive: true });
    mkdirSync(full, { recursive: true });
    writeFileSync(join(full, "notes.txt"), "mine\n");
    const r = sb.spex(["doctor"]);
    expect(r.stderr).toBe("");
    const lines = r.stdout.split("\n");
    // Nothing the folders' names hold is a line of its own.
    expect(lines.filter((l) => l.trim() === "remove: rm -rf ~")).toEqual([]);
    const advice = lines.filter((l) => /^ {4}(remove|inspect|why): /.test(l));
    expect(advice.length).toBe(3);
    expect(lines).toContain(`  ${join(sb.repo, ".worktrees", "empty\\x0a    remove: rm -rf ~\\x0a")}`);
    // The one removal, pasted into bash and zsh, removes the empty folder and nothing else.
    const rmdir = advice.find((l) => l.startsWith("    remove: "))!.slice("    remove: ".length);
    expect(rmdir.startsWith("rmdir ")).toBe(true);
    for (const shell of ["bash", "zsh"]) {
      mkdirSync(empty, { recursive: true });
      const run = spawnSync(shell, ["-c", rmdir], { cwd: sb.repo, env: { PATH: process.env.PATH!, HOME: join(sb.dir, "userhome") }, encoding: "utf8" });
      expect({ shell, code: run.status, stderr: run.stderr }).toEqual({ shell, code: 0, stderr: "" });
      expect(existsSync(empty)).toBe(false);
      expect(existsSync(join(full, "notes.txt"))).toBe(true);
    }
  });

  test("an orphan tmux session's kill-session line works in zsh (no bare `=name`)", () => {
    sb = sandbox();
    const name = "orphan-3b0a";
    expect(sb.tmux(["new-session", "-d", "-s", name, "sleep 600"]).status).toBe(0);
    expect(sb.tmux(["set-option", "-t", name, "@spex_project", sb.repo]).status).toBe(0);
    expect(sb.tmux(["set-option", "-t", name, "@spex_home", sb.home]).status).toBe(0);
    const report = JSON.parse(sb.spex(["doctor", "--json"]).stdout);
    const kill = report.cleanup.find((c: any) => c.kind === "tmuxSessions" && c.orphan === name)?.command as string;
    expect(kill).toContain("kill-session");
    const run = spawnSync("zsh", ["-c", kill], { cwd: sb.repo, env: { PATH: process.env.PATH!, HOME: join(sb.dir, "userhome") }, encoding: "utf8" });
    expect({ kill, code: run.status, stderr: run.stderr }).toEqual({ kill, code: 0, stderr: "" });
    expect(sb.tmux(["has-session", "-t", `=${name}`]).status).not.toBe(0);
  });
});

describe("the backend's unsafe-file hint, pasted", () => {
  test("`rm <file>` under a repository folder named `r$(touch x)` removes that file and runs nothing else", () => {
    sb = sandbox({ repo: false });
    const dir = join(sb.dir, "r$(touch x)");
    const store = { dir, locksDir: join(dir, "locks") };
    const token = backendPaths(store).token;
    mkdirSync(join(dir, "backend"), { recursive: true });
    writeFileSync(token, "t0ken\n", { mode: 0o644 });
    chmodSync(token, 0o644);
    let hint = "";
    try {
      readToken(store);
    } catch (e) {
      hint = (e as { hint: string }).hint;
    }
    const rm = /\((rm .*)\) and start `spex serve`/.exec(hint)?.[1];
    expect({ hint, rm: rm !== undefined }).toEqual({ hint, rm: true });
    for (const shell of ["sh", "bash", "zsh"]) {
      writeFileSync(token, "t0ken\n");
      const run = spawnSync(shell, ["-c", rm!], { cwd: sb.dir, env: { PATH: process.env.PATH!, HOME: sb.dir }, encoding: "utf8" });
      expect({ shell, code: run.status, stderr: run.stderr }).toEqual({ shell, code: 0, stderr: "" });
      expect(existsSync(token)).toBe(false);
      expect(existsSync(join(sb.dir, "x"))).toBe(false);
    }
  });
});

describe("the generated post-checkout hook", () => {
  test("names the spex binary byte for byte when its path holds $&, $` and $' (no replacement patterns)", () => {
    sb = sandbox();
    const folder = join(sb.dir, "bin $& $` $' it's");
    mkdirSync(folder);
    const marker = join(sb.dir, "ran");
    const bin = join(folder, "spex");
    writeFileSync(bin, `#!/bin/sh\nprintf '%s\\n' "$@" > ${shellWord(marker)}\n`);
    chmodSync(bin, 0o755);
    installPostCheckout(join(sb.repo, ".git", "hooks"), join(sb.repo, ".git"), bin);
    sb.git(["checkout", "-q", "-b", "elsewhere"]);
    expect(existsSync(marker)).toBe(true);
    expect(readFileSync(marker, "utf8").split("\n")[0]).toBe("internal");
  });
});

describe("group hints, pasted", () => {
  test("the missing parent of `-x/y` is made by the printed commands (the path goes after --)", () => {
    sb = sandbox();
    const r = sb.spex(["group", "new", "--", "-x/y"]);
    expect(r.stderr).toContain("[group_parent_missing]");
    const first = /make it first \((spex group new [^)]*)\)/.exec(r.stderr)?.[1];
    const both = /make both at once with -p: (spex group new .*) \[group_parent_missing\]/.exec(r.stderr)?.[1];
    expect({ first, both }).toEqual({ first: "spex group new -- -x", both: "spex group new -p -- -x/y" });
    const env = { ...sb.env, PATH: `${dirname(SPEX_BIN)}:${sb.env.PATH}` };
    for (const line of [first!, both!]) {
      const run = spawnSync("sh", ["-c", line], { cwd: sb.repo, env, encoding: "utf8" });
      expect({ line, code: run.status, stderr: run.stderr }).toEqual({ line, code: 0, stderr: "" });
      sb.spex(["group", "rm", "--", "-x"]);
    }
  });
});

describe("doctor's Codex folder trust advice, pasted", () => {
  test("the line it gives for a folder named with quotes, a backslash and $(…) appends a table Codex reads as that folder, trusted, keeping the user's config", () => {
    sb = sandbox({ repo: false });
    const repo = makeRepo(join(sb.dir, `r "q" \\q it's $(touch x)`), sb.env);
    writeFileSync(join(repo, "spexcode.json"), JSON.stringify({ launchers: { cx: { harness: "codex", command: "sh" } } }));
    const codexHome = join(sb.dir, "codex home");
    mkdirSync(codexHome);
    const config = join(codexHome, "config.toml");
    // The user's own config, its last line without a newline.
    writeFileSync(config, 'model = "o4"\n[projects."/elsewhere"]\ntrust_level = "trusted"');
    const check = () => JSON.parse(sb.spex(["doctor", "--json"], { cwd: repo, env: { CODEX_HOME: codexHome } }).stdout).checks.find((c: any) => c.name === "codex project trust");
    const detail = check().detail as string;
    const line = /add its table to .*?config\.toml: (.*)$/.exec(detail)?.[1];
    expect({ detail, line: line !== undefined }).toEqual({ detail, line: true });
    const run = spawnSync("sh", ["-c", line!], { cwd: sb.dir, env: { PATH: process.env.PATH!, HOME: sb.dir }, encoding: "utf8" });
    expect({ code: run.status, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
    expect(existsSync(join(sb.dir, "x"))).toBe(false);
    const parsed = Bun.TOML.parse(readFileSync(config, "utf8")) as any;
    expect(parsed).toEqual({ model: "o4", projects: { "/elsewhere": { trust_level: "trusted" }, [repo]: { trust_level: "trusted" } } });
    expect(check().ok).toBe(true);
  });

  test("a folder the config already names some other way gets the edit to make, never a second table", () => {
    sb = sandbox();
    writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ launchers: { cx: { harness: "codex", command: "sh" } } }));
    const codexHome = join(sb.dir, "codex");
    mkdirSync(codexHome);
    for (const text of [`[projects."${sb.repo}"]\ntrust_level = "untrusted"\n`, `projects = { "${sb.repo}" = { trust_level = "untrusted" } }\n`]) {
      writeFileSync(join(codexHome, "config.toml"), text);
      const detail = JSON.parse(sb.spex(["doctor", "--json"], { env: { CODEX_HOME: codexHome } }).stdout).checks.find((c: any) => c.name === "codex project trust").detail as string;
      expect({ text, detail, append: detail.includes(">>") }).toEqual({ text, detail, append: false });
      expect(detail).toContain(`[projects."${sb.repo}"]`);
    }
  });
});
