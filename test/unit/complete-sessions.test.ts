// Completion finds the project's sessions folder without lib/store
// (lib/cli/complete-sessions.ts): wherever it answers, it must name the folder
// lib/store names, and wherever it cannot be sure it must say so (the caller
// asks lib/store then). Real repositories, worktrees and homes.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { spawnSync } from "node:child_process";
import { lookupSessions, sessionWords } from "../../lib/cli/complete-sessions";
import { currentProject, projectStore } from "../../lib/store";
import { resolveLexically, resolveMainRoot } from "../../lib/git/main-root";
import { seedRecord } from "../support/records";
import { type Sandbox, sandbox } from "../support/sandbox";

let sb: Sandbox;
const saved = { home: process.env.SPEX_HOME, root: process.env.SPEX_PROJECT_ROOT, userHome: process.env.HOME };
beforeEach(() => {
  sb = sandbox();
  delete process.env.SPEX_PROJECT_ROOT;
  process.env.SPEX_HOME = sb.home;
});
afterEach(() => {
  sb.cleanup();
  for (const [k, v] of [["SPEX_HOME", saved.home], ["SPEX_PROJECT_ROOT", saved.root], ["HOME", saved.userHome]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

/** lib/store's answer for a folder, with the environment the lookup was given. */
function storeSessionsDir(cwd: string): string {
  return currentProject(cwd).sessionsDir;
}

/** git's own answer: the folder of the common git directory, or a submodule's top. */
function gitMainRoot(from: string): string {
  const ask = (...args: string[]) => spawnSync("git", ["-C", from, "rev-parse", ...args], { env: sb.env, encoding: "utf8" }).stdout.trim();
  const common = ask("--path-format=absolute", "--git-common-dir");
  return common.endsWith("/.git") ? common.slice(0, -5) : ask("--show-toplevel");
}

function worktree(): string {
  const path = join(sb.dir, "wt-one");
  sb.git(["worktree", "add", "-q", "-b", "one", path]);
  return path;
}

test("path folding matches path.resolve for absolute bases", () => {
  const cases: [string, string][] = [
    ["/a/b", "c"],
    ["/a/b", "../c/./d/"],
    ["/a/b", "/x//y/../z"],
    ["/a", "../../.."],
    ["/", "."],
    ["/a/b/.git/worktrees/x", "../.."],
  ];
  for (const [base, path] of cases) expect(resolveLexically(base, path)).toBe(resolve(base, path));
});

describe("the main checkout, as lib/git/main-root finds it for lib/store and completion alike", () => {
  test("from the root, a subfolder, a linked worktree and its subfolder", () => {
    const sub = join(sb.repo, "src", "deep");
    mkdirSync(sub, { recursive: true });
    const wt = worktree();
    mkdirSync(join(wt, "pkg"));
    for (const from of [sb.repo, sub, wt, join(wt, "pkg")]) expect({ from, root: resolveMainRoot(from) }).toEqual({ from, root: gitMainRoot(from) });
  });

  test("outside any checkout: none", () => {
    const elsewhere = join(sb.dir, "plain");
    mkdirSync(elsewhere);
    expect(resolveMainRoot(elsewhere)).toBeUndefined();
  });

  test("a worktree whose main checkout is reached through a link: the real main checkout", () => {
    const wt = worktree();
    // The worktree's .git file names the gitdir through a linked path: commondir is followed to the real one.
    const link = join(sb.dir, "repo-link");
    symlinkSync(sb.repo, link);
    writeFileSync(join(wt, ".git"), `gitdir: ${link}/.git/worktrees/wt-one\n`);
    expect(resolveMainRoot(wt)).toBe(sb.repo);
  });

  test("a .git file with a relative gitdir, or with no gitdir line (the search goes on above it)", () => {
    const wt = worktree();
    writeFileSync(join(wt, ".git"), "gitdir: ../repo/.git/worktrees/wt-one\n");
    expect(resolveMainRoot(wt)).toBe(sb.repo);
    const nested = join(sb.repo, "nested");
    mkdirSync(nested);
    writeFileSync(join(nested, ".git"), "not a gitdir\n");
    expect(resolveMainRoot(nested)).toBe(sb.repo);
  });

  test("a fifo planted as a .git is passed over, not read (the read would never end)", () => {
    const nested = join(sb.repo, "planted");
    mkdirSync(nested);
    expect(spawnSync("mkfifo", [join(nested, ".git")]).status).toBe(0);
    expect(resolveMainRoot(nested)).toBe(sb.repo);
  });

  test("a submodule's folder is its own root", () => {
    const lib = join(sb.dir, "lib-src");
    mkdirSync(lib);
    const git = (args: string[], cwd: string) => {
      const r = spawnSync("git", ["-c", "protocol.file.allow=always", ...args], { cwd, env: sb.env, encoding: "utf8" });
      if (r.status !== 0) throw new Error(r.stderr);
    };
    git(["init", "-q", "-b", "main"], lib);
    writeFileSync(join(lib, "x"), "x\n");
    git(["add", "x"], lib);
    git(["commit", "-q", "-m", "x"], lib);
    git(["submodule", "add", "-q", lib, "vendor/lib"], sb.repo);
    const inside = join(sb.repo, "vendor", "lib");
    expect(resolveMainRoot(inside)).toBe(gitMainRoot(inside));
    expect(resolveMainRoot(inside)).toBe(inside);
  });
});

describe("the sessions folder, as lib/store's currentProject finds it", () => {
  test("the same folder from the main checkout, a subfolder and a linked worktree", () => {
    seedRecord(sb.home, sb.repo, { name: "one" });
    const sub = join(sb.repo, "sub");
    mkdirSync(sub);
    const wt = worktree();
    for (const cwd of [sb.repo, sub, wt]) expect({ cwd, found: lookupSessions(cwd) }).toEqual({ cwd, found: { sessionsDir: storeSessionsDir(cwd) } });
  });

  test("SPEX_HOME written with . and .. segments names the same folder; one written relative is left to lib/store (which refuses it)", () => {
    seedRecord(sb.home, sb.repo, { name: "one" });
    const was = process.cwd();
    process.chdir(sb.repo);
    try {
      for (const written of [`${sb.dir}/./x/../home/`, `${sb.dir}//home`]) {
        process.env.SPEX_HOME = written;
        expect({ written, found: lookupSessions(sb.repo) }).toEqual({ written, found: { sessionsDir: storeSessionsDir(sb.repo) } });
      }
      process.env.SPEX_HOME = "../home";
      expect(lookupSessions(sb.repo)).toBe("unsure");
      expect(() => storeSessionsDir(sb.repo)).toThrow("not an absolute path");
    } finally {
      process.chdir(was);
    }
  });

  test("no SPEX_HOME: $HOME/.spex, as os.homedir() names it; no usable $HOME is left to lib/store", () => {
    const userHome = join(sb.dir, "userhome");
    seedRecord(join(userHome, ".spex"), sb.repo, { name: "one" });
    const env = { HOME: `${userHome}/` };
    expect(lookupSessions(sb.repo, env)).toEqual({ sessionsDir: projectStore(sb.repo, join(userHome, ".spex")).sessionsDir });
    expect(lookupSessions(sb.repo, {})).toBe("unsure");
    expect(lookupSessions(sb.repo, { HOME: "relative" })).toBe("unsure");
  });

  test("a home other users may write, or no home at all: no sessions (lib/store refuses the first)", () => {
    seedRecord(sb.home, sb.repo, { name: "one" });
    chmodSync(sb.home, 0o777);
    expect(lookupSessions(sb.repo)).toBe("none");
    chmodSync(sb.home, 0o700);
    process.env.SPEX_HOME = join(sb.dir, "no-such-home");
    expect(lookupSessions(sb.repo)).toBe("none");
  });

  test("unsure, so lib/store decides: SPEX_PROJECT_ROOT set, outside a checkout, no store under the key yet", () => {
    process.env.SPEX_PROJECT_ROOT = sb.repo;
    expect(lookupSessions(sb.repo)).toBe("unsure");
    delete process.env.SPEX_PROJECT_ROOT;
    const elsewhere = join(sb.dir, "plain");
    mkdirSync(elsewhere);
    expect(lookupSessions(elsewhere)).toBe("unsure");
    // No session was ever made here: lib/store may still adopt a store made under the old key.
    rmSync(join(sb.home, "projects"), { recursive: true, force: true });
    expect(lookupSessions(sb.repo)).toBe("unsure");
  });
});

describe("the names offered, read from each record", () => {
  const ID = (n: number) => `e0000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
  function folderOf(texts: string[]): string {
    const dir = join(sb.dir, "sessions");
    texts.forEach((text, i) => {
      mkdirSync(join(dir, ID(i)), { recursive: true });
      writeFileSync(join(dir, ID(i), "session.json"), text);
    });
    return dir;
  }
  const canonical = (fields: Record<string, unknown>) => `${JSON.stringify({ session_id: "x", ...fields, status: "idle" }, null, 2)}\n`;

  test("each record's name as JSON reads it, however the record is laid out", () => {
    const texts = [
      canonical({ name: 'quote " and \\ back' }),
      canonical({ name: "snow ☃ \u2603" }),
      canonical({ name: "" }),
      // Written by hand: one line; a nested "name" deeper; a name that is no string.
      JSON.stringify({ session_id: "x", name: "compact" }),
      canonical({ parent: { name: "not me" }, name: "outer" }),
      canonical({ name: { first: "a" } }),
      // Two name lines: JSON keeps the last.
      canonical({ name: "first" }).replace('"status"', '"name": "second",\n  "status"'),
    ];
    const words = sessionWords(folderOf(texts));
    const names = words.filter((w) => !/^e0000000$/.test(w));
    expect(names.sort()).toEqual(['quote " and \\ back', "snow ☃ \u2603", "compact", "outer", "second"].sort());
    expect(words.filter((w) => w === "e0000000")).toHaveLength(texts.length);
  });

  test("a record that is not JSON offers its id only", () => {
    const words = sessionWords(folderOf(['{\n  "session_id": "x",\n  "name": "half', "\u0000garbage"]));
    expect(words).toEqual(["e0000000", "e0000000"]);
  });
});
