// The SPEX_HOME layout, project keys from the main checkout, and enumeration
// that keeps corrupt rows (DESIGN.md §3).
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { emptyRecord, writeRecordFile } from "../../lib/record";
import { currentProject, listSessionIds, projectKey, projectStore, recordLockPath, sessionPaths, spexHome } from "../../lib/store";
import { resolveMainRoot } from "../../lib/git/main-root";
import { type Sandbox, sandbox } from "../support/sandbox";

let sb: Sandbox;
const saved = { home: process.env.SPEX_HOME, root: process.env.SPEX_PROJECT_ROOT };
beforeEach(() => {
  sb = sandbox();
  delete process.env.SPEX_PROJECT_ROOT;
});
afterEach(() => {
  sb.cleanup();
  for (const [k, v] of [["SPEX_HOME", saved.home], ["SPEX_PROJECT_ROOT", saved.root]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe("store layout", () => {
  test("SPEX_HOME defaults to ~/.spex and follows the environment", () => {
    delete process.env.SPEX_HOME;
    expect(spexHome()).toBe(join(homedir(), ".spex"));
    process.env.SPEX_HOME = sb.home;
    expect(spexHome()).toBe(sb.home);
  });

  test("the project key is the main checkout path with / and . turned into -", () => {
    expect(projectKey("/home/me/src/my.repo")).toBe("-home-me-src-my-repo");
  });

  test("a project's sessions, records and locks live at the documented paths", () => {
    const store = projectStore("/src/app", "/h");
    expect(store.dir).toBe("/h/projects/-src-app");
    expect(sessionPaths(store, "abc").record).toBe("/h/projects/-src-app/sessions/abc/session.json");
    expect(sessionPaths(store, "abc").prompt).toBe("/h/projects/-src-app/sessions/abc/prompt");
    expect(recordLockPath(store, "abc")).toBe("/h/projects/-src-app/locks/abc.lock");
  });

  test("a linked worktree resolves to its main checkout, so both name one project", () => {
    const wt = join(sb.repo, ".worktrees", "feature-1");
    sb.git(["worktree", "add", "-q", "-b", "spex/feature-1", wt]);
    mkdirSync(join(wt, "deep", "er"), { recursive: true });
    expect(resolveMainRoot(join(wt, "deep", "er"))).toBe(sb.repo);
    process.env.SPEX_HOME = sb.home;
    expect(currentProject(join(wt, "deep")).key).toBe(projectKey(sb.repo));
    expect(currentProject(sb.repo).dir).toBe(projectStore(sb.repo, sb.home).dir);
  });

  test("SPEX_PROJECT_ROOT names the project for hooks running anywhere", () => {
    process.env.SPEX_HOME = sb.home;
    process.env.SPEX_PROJECT_ROOT = sb.repo;
    expect(currentProject(sb.dir).root).toBe(sb.repo);
  });

  test("outside any checkout there is no project: not_a_git_repo", () => {
    expect(() => currentProject(sb.home)).toThrow(expect.objectContaining({ code: "not_a_git_repo" }));
  });
});

describe("enumeration", () => {
  test("lists every session folder holding a record, corrupt ones included, and nothing else", () => {
    const store = projectStore(sb.repo, sb.home);
    const ok = sessionPaths(store, "b-ok");
    const corrupt = sessionPaths(store, "a-corrupt");
    const empty = sessionPaths(store, "c-empty");
    for (const p of [ok, corrupt, empty]) mkdirSync(p.dir, { recursive: true });
    writeRecordFile(ok.record, emptyRecord("b-ok"));
    writeFileSync(corrupt.record, '{"session_id": "a-co');
    mkdirSync(join(store.sessionsDir, ".tmp-x"));
    writeFileSync(join(store.sessionsDir, ".tmp-x", "session.json"), "{}");
    expect(listSessionIds(store)).toEqual(["a-corrupt", "b-ok"]);
  });

  test("a project with no sessions yet lists none", () => {
    expect(listSessionIds(projectStore(sb.repo, sb.home))).toEqual([]);
  });

  test("a record that cannot even be stat'ed is listed, so its read error surfaces instead of the row vanishing", () => {
    const store = projectStore(sb.repo, sb.home);
    const loop = sessionPaths(store, "loop");
    mkdirSync(loop.dir, { recursive: true });
    symlinkSync(loop.record, loop.record);
    expect(listSessionIds(store)).toEqual(["loop"]);
  });
});
