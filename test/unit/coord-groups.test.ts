// Session groups (DESIGN.md §9): path rules, nesting, the inherited default
// directory, and removal that moves sessions to the root.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import {
  type GroupsFile,
  addGroup,
  checkGroupDirectory,
  checkGroupPath,
  compareGroupPaths,
  createGroup,
  deleteGroup,
  effectiveDirectory,
  fileInto,
  fileSessions,
  groupMembership,
  groupsFilePath,
  listGroups,
  normalizeGroupTarget,
  removeGroup,
  requireGroup,
} from "../../lib/coord/groups";
import { listRows } from "../../lib/sessions";
import { projectStore, sessionPaths } from "../../lib/store";
import { type Sandbox, sandbox } from "../support/sandbox";
import { seedRecord } from "../support/records";

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return undefined;
}

async function asyncCodeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return undefined;
}

function fresh(): GroupsFile {
  return { version: 1, groups: [], members: {} };
}

const NOW = "2026-11-30T00:00:00.000Z";

describe("group paths", () => {
  test("accepts nested segments of letters, digits, dash, underscore and dot", () => {
    for (const p of ["a", "a/b", "fleet-1/api_v2/v1.2", "A/B/C"]) expect(checkGroupPath(p)).toBe(p);
  });

  test("refuses empty segments, bad characters, dot segments and the empty path", () => {
    for (const p of ["", "/", "a/", "/a", "a//b", "a b", "a/./b", "..", "a/..", "über", "a\\b"]) {
      expect(codeOf(() => checkGroupPath(p))).toBe("group_path_invalid");
    }
  });

  test('"" and "/" name the root as a filing target', () => {
    expect(normalizeGroupTarget("")).toBe("");
    expect(normalizeGroupTarget("/")).toBe("");
    expect(normalizeGroupTarget("a/b")).toBe("a/b");
  });

  test("tree order puts a parent before its children and a/b before a-b", () => {
    expect(["a-b", "b", "a/b", "a", "a/b/c"].sort(compareGroupPaths)).toEqual(["a", "a/b", "a/b/c", "a-b", "b"]);
  });
});

describe("group directories", () => {
  test("a directory is kept relative to the main checkout and normalized", () => {
    expect(checkGroupDirectory("services/api/", "/repo")).toBe("services/api");
    expect(checkGroupDirectory("./x/../y", "/repo")).toBe("y");
    expect(checkGroupDirectory("/repo/lib", "/repo")).toBe("lib");
    expect(checkGroupDirectory(".", "/repo")).toBe("");
    expect(checkGroupDirectory("", "/repo")).toBe("");
  });

  test("a directory outside the repository is refused", () => {
    for (const d of ["..", "../other", "a/../../b", "/elsewhere", "/repo-sibling/x"]) {
      expect(codeOf(() => checkGroupDirectory(d, "/repo"))).toBe("group_directory_outside");
    }
  });

  test("a nested group without a directory inherits the nearest ancestor's", () => {
    const f = fresh();
    addGroup(f, "a", "services", NOW);
    addGroup(f, "a/b", "", NOW);
    addGroup(f, "a/b/c", "", NOW);
    addGroup(f, "a/d", "web", NOW);
    addGroup(f, "z", "", NOW);
    expect(effectiveDirectory(f.groups, "a/b/c")).toBe("services");
    expect(effectiveDirectory(f.groups, "a/d")).toBe("web");
    expect(effectiveDirectory(f.groups, "z")).toBe("");
  });
});

describe("nesting and membership", () => {
  test("a nested group needs its parent, and a duplicate is refused", () => {
    const f = fresh();
    expect(codeOf(() => addGroup(f, "a/b", "", NOW))).toBe("group_parent_missing");
    addGroup(f, "a", "", NOW);
    addGroup(f, "a/b", "", NOW);
    expect(codeOf(() => addGroup(f, "a", "", NOW))).toBe("group_exists");
    expect(f.groups.map((g) => g.path)).toEqual(["a", "a/b"]);
  });

  test("removing a group removes its nested groups and moves their sessions to the root", () => {
    const f = fresh();
    for (const p of ["a", "a/b", "a/b/c", "a-b"]) addGroup(f, p, "", NOW);
    fileInto(f, "a/b", ["s1"]);
    fileInto(f, "a/b/c", ["s2"]);
    fileInto(f, "a-b", ["s3"]);
    const removal = removeGroup(f, "a/b");
    expect(removal).toEqual({ removedGroups: ["a/b", "a/b/c"], movedSessions: ["s1", "s2"] });
    expect(f.groups.map((g) => g.path)).toEqual(["a", "a-b"]);
    expect(f.members).toEqual({ s3: "a-b" });
  });

  test("removing a group that does not exist is refused", () => {
    expect(codeOf(() => removeGroup(fresh(), "nope"))).toBe("group_not_found");
  });

  test("filing moves a session between groups and back to the root, reporting where it was", () => {
    const f = fresh();
    addGroup(f, "a", "", NOW);
    addGroup(f, "b", "", NOW);
    expect(fileInto(f, "a", ["s1", "s1"]).filed).toEqual([{ id: "s1", from: "" }]);
    expect(fileInto(f, "b", ["s1"]).filed).toEqual([{ id: "s1", from: "a" }]);
    expect(fileInto(f, "", ["s1"]).filed).toEqual([{ id: "s1", from: "b" }]);
    expect(f.members).toEqual({});
    expect(codeOf(() => fileInto(f, "c", ["s1"]))).toBe("group_not_found");
  });
});

describe("the groups file", () => {
  let sb: Sandbox;
  afterEach(() => sb?.cleanup());

  test("create, file, list and delete land in coord/groups.json with counts and effective directories", async () => {
    sb = sandbox();
    const store = projectStore(sb.repo, sb.home);
    const one = seedRecord(sb.home, sb.repo, { prompt: "one" });
    const two = seedRecord(sb.home, sb.repo, { prompt: "two" });
    await createGroup(store, "fleet", "services");
    const nested = await createGroup(store, "fleet/api");
    expect(nested.effectiveDirectory).toBe("services");
    expect(await asyncCodeOf(createGroup(store, "fleet"))).toBe("group_exists");
    expect(await asyncCodeOf(createGroup(store, "x/y"))).toBe("group_parent_missing");
    expect(await asyncCodeOf(createGroup(store, "out", "../elsewhere"))).toBe("group_directory_outside");
    await fileSessions(store, "fleet", [one.session_id]);
    await fileSessions(store, "fleet/api", [two.session_id]);
    expect(listGroups(store).map((g) => [g.path, g.effectiveDirectory, g.sessions])).toEqual([
      ["fleet", "services", 1],
      ["fleet/api", "services", 1],
    ]);
    const stored = JSON.parse(readFileSync(groupsFilePath(store), "utf8"));
    expect(stored.members).toEqual({ [one.session_id]: "fleet", [two.session_id]: "fleet/api" });
    const rows = listRows(store);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.kind === "ok" ? r.group : null]))).toEqual({
      [one.session_id]: "fleet",
      [two.session_id]: "fleet/api",
    });
    const removal = await deleteGroup(store, "fleet");
    expect(removal.removedGroups).toEqual(["fleet", "fleet/api"]);
    expect(removal.movedSessions).toEqual([one.session_id, two.session_id].sort());
    expect(listGroups(store)).toEqual([]);
    expect(listRows(store).map((r) => (r.kind === "ok" ? r.group : null))).toEqual(["", ""]);
  });

  test("a member whose session record is gone is dropped on read", async () => {
    sb = sandbox();
    const store = projectStore(sb.repo, sb.home);
    const kept = seedRecord(sb.home, sb.repo, { prompt: "kept" });
    const gone = seedRecord(sb.home, sb.repo, { prompt: "gone" });
    await createGroup(store, "g");
    await fileSessions(store, "g", [kept.session_id, gone.session_id]);
    rmSync(sessionPaths(store, gone.session_id).dir, { recursive: true });
    expect(listGroups(store)[0]!.sessions).toBe(1);
    await createGroup(store, "h");
    const stored = JSON.parse(readFileSync(groupsFilePath(store), "utf8"));
    expect(stored.members).toEqual({ [kept.session_id]: "g" });
  });

  test("an unknown group is refused by requireGroup, the root is always known", async () => {
    sb = sandbox();
    const store = projectStore(sb.repo, sb.home);
    expect(codeOf(() => requireGroup(store, "nope"))).toBe("group_not_found");
    expect(requireGroup(store, "/")).toBe("");
    await createGroup(store, "yes");
    expect(requireGroup(store, "yes")).toBe("yes");
  });

  test("a corrupt groups file is refused by group verbs but leaves session listing in the root", () => {
    sb = sandbox();
    const store = projectStore(sb.repo, sb.home);
    seedRecord(sb.home, sb.repo, { prompt: "one" });
    mkdirSync(dirname(groupsFilePath(store)), { recursive: true });
    writeFileSync(groupsFilePath(store), "{not json");
    expect(codeOf(() => listGroups(store))).toBe("groups_corrupt");
    expect(groupMembership(store).size).toBe(0);
    expect(listRows(store).map((r) => (r.kind === "ok" ? r.group : null))).toEqual([""]);
  });
});
