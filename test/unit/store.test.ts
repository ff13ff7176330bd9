// The SPEX_HOME layout, project keys from the main checkout, and enumeration
// that keeps corrupt rows (DESIGN.md §3).
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { lstatSync, mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { emptyRecord, writeRecordFile } from "../../lib/record";
import { currentProject, legacyProjectKey, listProjectKeys, listSessionIds, projectKey, projectStore, recordLockPath, sessionPaths, spexHome } from "../../lib/store";
import { resolveMainRoot } from "../../lib/git/main-root";
import { type Sandbox, sandbox } from "../support/sandbox";

const ID1 = "a0000000-0000-4000-8000-000000000001";
const ID2 = "b0000000-0000-4000-8000-000000000002";
const ID3 = "c0000000-0000-4000-8000-000000000003";

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

  test("the project key is the readable path (/ and . turned into -) plus a hash of the real path", () => {
    expect(projectKey("/home/me/src/my.repo")).toMatch(/^-home-me-src-my-repo-[0-9a-f]{16}$/);
  });

  // Issue 10 item 6: /x/pk.x and /x/pk-x shared one store.
  test("paths that differ only in / . - get different keys", () => {
    const keys = ["/x/pk.x", "/x/pk-x", "/x/pk/x", "/x-pk.x"].map(projectKey);
    expect(new Set(keys).size).toBe(4);
  });

  test("a project's sessions, records and locks live at the documented paths", () => {
    const store = projectStore("/src/app", "/h");
    const key = projectKey("/src/app");
    expect(store.dir).toBe(`/h/projects/${key}`);
    expect(sessionPaths(store, ID1).record).toBe(`/h/projects/${key}/sessions/${ID1}/session.json`);
    expect(sessionPaths(store, ID1).prompt).toBe(`/h/projects/${key}/sessions/${ID1}/prompt`);
    expect(recordLockPath(store, ID1)).toBe(`/h/projects/${key}/locks/${ID1}.lock`);
  });

  // Issue 10 item 5: an id is checked before it becomes a path.
  test("an id that is not a UUID never becomes a session path or a lock path: session_not_found", () => {
    const store = projectStore("/src/app", "/h");
    for (const bad of ["../../other/sessions/" + ID1, "..", ".", "", ID1.toUpperCase(), `${ID1}/x`, "abc"]) {
      expect(() => sessionPaths(store, bad)).toThrow(expect.objectContaining({ code: "session_not_found" }));
      expect(() => recordLockPath(store, bad)).toThrow(expect.objectContaining({ code: "session_not_found" }));
    }
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
    const ok = sessionPaths(store, ID2);
    const corrupt = sessionPaths(store, ID1);
    const empty = sessionPaths(store, ID3);
    for (const p of [ok, corrupt, empty]) mkdirSync(p.dir, { recursive: true });
    writeRecordFile(ok.record, emptyRecord(ID2));
    writeFileSync(corrupt.record, '{"session_id": "a-co');
    // Folders not named by a UUID are no sessions, whatever they hold.
    for (const name of [".tmp-x", "not-an-id", ID1.toUpperCase()]) {
      mkdirSync(join(store.sessionsDir, name));
      writeFileSync(join(store.sessionsDir, name, "session.json"), "{}");
    }
    expect(listSessionIds(store)).toEqual([ID1, ID2]);
  });

  test("a project with no sessions yet lists none", () => {
    expect(listSessionIds(projectStore(sb.repo, sb.home))).toEqual([]);
  });

  test("a record that cannot even be stat'ed is listed, so its read error surfaces instead of the row vanishing", () => {
    const store = projectStore(sb.repo, sb.home);
    const loop = sessionPaths(store, ID1);
    mkdirSync(loop.dir, { recursive: true });
    symlinkSync(loop.record, loop.record);
    expect(listSessionIds(store)).toEqual([ID1]);
  });
});

describe("stores made under the old key (slug only)", () => {
  function legacyStore(root: string, records: { id: string; root: string }[]): string {
    const dir = join(sb.home, "projects", legacyProjectKey(root));
    for (const r of records) {
      mkdirSync(join(dir, "sessions", r.id), { recursive: true });
      writeRecordFile(join(dir, "sessions", r.id, "session.json"), { ...emptyRecord(r.id), project_root: r.root, note: "made before the key changed" });
    }
    return dir;
  }

  test("a store made with the old key is still found, under the new key, and listed once", () => {
    const old = legacyStore(sb.repo, [{ id: ID1, root: sb.repo }]);
    const store = projectStore(sb.repo, sb.home);
    expect(store.key).toBe(projectKey(sb.repo));
    expect(listSessionIds(store)).toEqual([ID1]);
    expect(realpathSync(store.dir)).toBe(old);
    expect(listProjectKeys(sb.home)).toEqual([store.key]);
    // Adopted once: the next lookup finds the same folder.
    expect(listSessionIds(projectStore(sb.repo, sb.home))).toEqual([ID1]);
  });

  test("an old store that holds another checkout's sessions is not adopted: each checkout keeps its own", () => {
    const other = `${sb.repo.slice(0, -5)}-repo`; // "/…/repo" and "/…-repo" shared the old key
    expect(legacyProjectKey(other)).toBe(legacyProjectKey(sb.repo));
    legacyStore(sb.repo, [{ id: ID1, root: other }]);
    const store = projectStore(sb.repo, sb.home);
    expect(listSessionIds(store)).toEqual([]);
    expect(lstatSync(join(sb.home, "projects", legacyProjectKey(sb.repo))).isDirectory()).toBe(true);
  });
});
