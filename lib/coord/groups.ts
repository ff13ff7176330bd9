// Session groups (DESIGN.md §9): nested paths (`a`, `a/b`) with a default
// directory that nested groups inherit. Groups and membership live in one
// project file, `coord/groups.json`, changed only under the project's groups
// lock and landed by atomic replace. A session with no entry is in the root "".
import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SpexError, errnoCode } from "../errors";
import { withLock } from "../lock";
import { writeJsonDurably } from "../record";
import { relativeInside } from "../nofollow";
import { type ProjectStore, isSessionId, sessionPaths } from "../store";
import { COORD_LIMITS, refuseTooLong } from "./limits";
import { shellWord } from "../tmux/quote";

export interface GroupEntry {
  path: string;
  /** Relative to the main checkout; "" inherits the parent's. */
  directory: string;
  createdAt: string;
}

/** The stored file: groups in tree order, membership keyed by session id. */
export interface GroupsFile {
  version: 1;
  groups: GroupEntry[];
  members: Record<string, string>;
}

/** A group as listings show it. */
export interface GroupView extends GroupEntry {
  parent: string;
  depth: number;
  /** The directory sessions in this group start from ("" is the main checkout itself). */
  effectiveDirectory: string;
  /** Sessions filed directly in this group. */
  sessions: number;
}

export interface GroupRemoval {
  removedGroups: string[];
  movedSessions: string[];
}

export interface FiledSession {
  id: string;
  from: string;
}

export interface GroupFiling {
  group: string;
  filed: FiledSession[];
}

const SEGMENT = /^[A-Za-z0-9._-]+$/;

// ---- pure logic -----------------------------------------------------------

/** "" and "/" name the root; anything else must be a valid group path. */
export function normalizeGroupTarget(path: string): string {
  return path === "" || path === "/" ? "" : checkGroupPath(path);
}

/** A group path: segments of letters, digits, `-`, `_`, `.`, none empty, none `.` or `..`. */
export function checkGroupPath(path: string): string {
  refuseTooLong("the group path", path, COORD_LIMITS.groupPath);
  const segments = path.split("/");
  const bad = segments.find((s) => !SEGMENT.test(s) || s === "." || s === "..");
  if (path === "" || bad !== undefined) {
    throw new SpexError("group_path_invalid", `"${path}" is not a group path`, {
      hint: "use slash-separated segments of letters, digits, -, _ and . (e.g. fleet/api); no empty segments",
      details: { path },
      httpStatus: 400,
    });
  }
  return path;
}

export function parentOf(path: string): string {
  const cut = path.lastIndexOf("/");
  return cut < 0 ? "" : path.slice(0, cut);
}

function isWithin(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(ancestor + "/");
}

/** Tree order: a parent before its children, siblings by name (so `a/b` sorts before `a-b`). */
export function compareGroupPaths(a: string, b: string): number {
  const sa = a.split("/");
  const sb = b.split("/");
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    if (sa[i] !== sb[i]) return sa[i]! < sb[i]! ? -1 : 1;
  }
  return sa.length - sb.length;
}

/**
 * A default directory, relative to the main checkout and inside it. An absolute
 * path inside the checkout is made relative; "" and "." mean none of its own.
 * The check is lexical: the folder need not exist yet.
 */
export function checkGroupDirectory(dir: string, mainRoot: string): string {
  refuseTooLong("the group directory", dir, COORD_LIMITS.groupDirectory);
  const normal = relativeInside(mainRoot, dir);
  if (normal === undefined) {
    throw new SpexError("group_directory_outside", `the directory "${dir}" is outside the repository ${mainRoot}`, {
      hint: "give a folder inside the repository, relative to its main checkout (e.g. services/api)",
      details: { directory: dir },
      httpStatus: 400,
    });
  }
  return normal;
}

/** The directory a group's sessions start from: its own, else the nearest ancestor's. */
export function effectiveDirectory(groups: GroupEntry[], path: string): string {
  const byPath = new Map(groups.map((g) => [g.path, g]));
  for (let p = path; p !== ""; p = parentOf(p)) {
    const dir = byPath.get(p)?.directory;
    if (dir) return dir;
  }
  return "";
}

export function viewGroups(file: GroupsFile): GroupView[] {
  const counts = new Map<string, number>();
  for (const g of Object.values(file.members)) counts.set(g, (counts.get(g) ?? 0) + 1);
  return [...file.groups]
    .sort((a, b) => compareGroupPaths(a.path, b.path))
    .map((g) => ({
      ...g,
      parent: parentOf(g.path),
      depth: g.path.split("/").length - 1,
      effectiveDirectory: effectiveDirectory(file.groups, g.path),
      sessions: counts.get(g.path) ?? 0,
    }));
}

function groupNotFound(path: string): SpexError {
  return new SpexError("group_not_found", `no group "${path}"`, {
    hint: "list groups with `spex group ls`, or make it with `spex group new`",
    details: { path },
    httpStatus: 404,
  });
}

/** Missing ancestors of `path` (outermost first), as `mkdir -p` would make them. */
export function missingParents(file: GroupsFile, path: string): string[] {
  const missing: string[] = [];
  for (let p = parentOf(path); p !== ""; p = parentOf(p)) if (!file.groups.some((g) => g.path === p)) missing.unshift(p);
  return missing;
}

/** A group path as the last argument of a printed command: after `--` when it starts with `-` (else it reads as an option). */
function groupArg(path: string): string {
  return path.startsWith("-") ? `-- ${shellWord(path)}` : shellWord(path);
}

export function addGroup(file: GroupsFile, path: string, directory: string, now: string): GroupEntry {
  checkGroupPath(path);
  if (file.groups.some((g) => g.path === path)) {
    throw new SpexError("group_exists", `the group "${path}" already exists`, {
      hint: "pick another path, or file sessions into the existing group with `spex group file`",
      details: { path },
    });
  }
  const parent = parentOf(path);
  if (parent !== "" && !file.groups.some((g) => g.path === parent)) {
    throw new SpexError("group_parent_missing", `the parent group "${parent}" of "${path}" does not exist`, {
      hint: `make it first (spex group new ${groupArg(parent)}), or make both at once with -p: spex group new -p ${groupArg(path)}`,
      details: { path, parent },
    });
  }
  const entry: GroupEntry = { path, directory, createdAt: now };
  file.groups.push(entry);
  return entry;
}

/** Remove a group and everything nested under it; its sessions move to the root. */
export function removeGroup(file: GroupsFile, path: string): GroupRemoval {
  checkGroupPath(path);
  if (!file.groups.some((g) => g.path === path)) throw groupNotFound(path);
  const removedGroups = file.groups.filter((g) => isWithin(g.path, path)).map((g) => g.path).sort(compareGroupPaths);
  file.groups = file.groups.filter((g) => !isWithin(g.path, path));
  const movedSessions: string[] = [];
  for (const [id, g] of Object.entries(file.members)) {
    if (isWithin(g, path)) {
      movedSessions.push(id);
      delete file.members[id];
    }
  }
  return { removedGroups, movedSessions: movedSessions.sort() };
}

/** File sessions into a group ("" is the root, which holds sessions by having no entry). */
export function fileInto(file: GroupsFile, group: string, ids: string[]): GroupFiling {
  if (group !== "" && !file.groups.some((g) => g.path === group)) throw groupNotFound(group);
  const filed: FiledSession[] = [];
  for (const id of new Set(ids)) {
    filed.push({ id, from: file.members[id] ?? "" });
    if (group === "") delete file.members[id];
    else file.members[id] = group;
  }
  return { group, filed };
}

// ---- the file -------------------------------------------------------------

export function groupsFilePath(store: ProjectStore): string {
  return join(store.dir, "coord", "groups.json");
}

export function groupsLockPath(store: ProjectStore): string {
  return join(store.locksDir, "coord-groups.lock");
}

function emptyFile(): GroupsFile {
  return { version: 1, groups: [], members: {} };
}

function groupsCorrupt(file: string, why: string): SpexError {
  return new SpexError("groups_corrupt", `the groups file ${file} cannot be read: ${why}`, {
    hint: "fix or move that file aside; session records are not affected",
    details: { file },
  });
}

function parseGroupsFile(text: string, file: string): GroupsFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw groupsCorrupt(file, (e as Error).message);
  }
  const o = raw as Partial<GroupsFile> | null;
  if (!o || typeof o !== "object" || !Array.isArray(o.groups) || typeof o.members !== "object" || o.members === null) {
    throw groupsCorrupt(file, "expected {groups: [...], members: {...}}");
  }
  const groups: GroupEntry[] = [];
  for (const g of o.groups) {
    if (!g || typeof g.path !== "string" || typeof g.directory !== "string" || typeof g.createdAt !== "string") {
      throw groupsCorrupt(file, "a group lacks path, directory or createdAt");
    }
    groups.push({ path: g.path, directory: g.directory, createdAt: g.createdAt });
  }
  const known = new Set(groups.map((g) => g.path));
  const members: Record<string, string> = {};
  // A member of a group that no longer exists reads as in the root.
  for (const [id, g] of Object.entries(o.members)) if (typeof g === "string" && known.has(g)) members[id] = g;
  return { version: 1, groups, members };
}

// lstat, not existsSync: an unreadable record is still present and keeps its group.
function recordPresent(store: ProjectStore, id: string): boolean {
  if (!isSessionId(id)) return false;
  try {
    lstatSync(sessionPaths(store, id).record);
    return true;
  } catch (e) {
    const code = errnoCode(e);
    if (code === "ENOENT" || code === "ENOTDIR") return false;
    throw e;
  }
}

/**
 * The groups of a project. Members whose record is gone (a closed session) are
 * dropped; the next write under the lock makes that permanent.
 */
export function readGroups(store: ProjectStore, opts: { pruneAbsent?: boolean } = {}): GroupsFile {
  const file = groupsFilePath(store);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return emptyFile();
    throw e;
  }
  const parsed = parseGroupsFile(text, file);
  if (opts.pruneAbsent !== false) {
    for (const id of Object.keys(parsed.members)) if (!recordPresent(store, id)) delete parsed.members[id];
  }
  return parsed;
}

/**
 * Session id → group path for a whole listing, read once. Ids not in the map
 * are in the root. A corrupt groups file must not take `session ls` down with
 * it: every session then reads as in the root, and `spex group ls` names the fault.
 */
export function groupMembership(store: ProjectStore): Map<string, string> {
  try {
    return new Map(Object.entries(readGroups(store, { pruneAbsent: false }).members));
  } catch (e) {
    if (e instanceof SpexError && e.code === "groups_corrupt") return new Map();
    throw e;
  }
}

function writeGroups(store: ProjectStore, data: GroupsFile): void {
  const ordered: GroupsFile = {
    version: 1,
    groups: [...data.groups].sort((a, b) => compareGroupPaths(a.path, b.path)),
    members: Object.fromEntries(Object.entries(data.members).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
  writeJsonDurably(groupsFilePath(store), ordered);
}

/** Read, change and write back under the project's groups lock. */
async function changeGroups<T>(store: ProjectStore, purpose: string, change: (file: GroupsFile) => T): Promise<T> {
  return withLock(
    groupsLockPath(store),
    () => {
      const data = readGroups(store);
      const result = change(data);
      writeGroups(store, data);
      return result;
    },
    { purpose },
  );
}

// ---- the operations commands call ------------------------------------------

export function listGroups(store: ProjectStore): GroupView[] {
  return viewGroups(readGroups(store));
}

/**
 * Make a group. With `parents` its missing ancestors are made first (with no
 * directory of their own), as `mkdir -p` does, and an existing group is no
 * error: it is answered as it is (`created` lists what was made).
 */
export async function createGroup(store: ProjectStore, path: string, directory = "", opts: { parents?: boolean } = {}): Promise<GroupView & { created: string[] }> {
  checkGroupPath(path);
  const dir = checkGroupDirectory(directory, store.root);
  return changeGroups(store, `group new ${path}`, (data) => {
    const now = new Date().toISOString();
    const created: string[] = [];
    if (opts.parents) {
      for (const p of missingParents(data, path)) created.push(addGroup(data, p, "", now).path);
      if (data.groups.some((g) => g.path === path)) {
        const existing = data.groups.find((g) => g.path === path)!;
        if (dir !== "" && existing.directory !== dir) {
          throw new SpexError("group_exists", `the group "${path}" already exists with ${existing.directory ? `the directory ${existing.directory}` : "no directory of its own"}`, {
            hint: "-p leaves an existing group as it is; remove it first to change its directory",
            details: { path },
          });
        }
        return { ...viewGroups(data).find((g) => g.path === path)!, created };
      }
    }
    created.push(addGroup(data, path, dir, now).path);
    return { ...viewGroups(data).find((g) => g.path === path)!, created };
  });
}

export async function deleteGroup(store: ProjectStore, path: string): Promise<GroupRemoval> {
  checkGroupPath(path);
  return changeGroups(store, `group rm ${path}`, (data) => removeGroup(data, path));
}

/** File sessions (by id; the caller resolves selectors) into a group, or "" / "/" for the root. */
export async function fileSessions(store: ProjectStore, group: string, ids: string[]): Promise<GroupFiling> {
  const target = normalizeGroupTarget(group);
  return changeGroups(store, `group file ${target}`, (data) => fileInto(data, target, ids));
}

/** Refuse an unknown group before anything is made (`session new --group`). */
export function requireGroup(store: ProjectStore, group: string): string {
  const target = normalizeGroupTarget(group);
  if (target !== "" && !readGroups(store, { pruneAbsent: false }).groups.some((g) => g.path === target)) {
    throw groupNotFound(target);
  }
  return target;
}
