// The SPEX_HOME layout (DESIGN.md §3). Pure path arithmetic plus enumeration;
// nothing here writes a record.
import { type Dirent, existsSync, lstatSync, readdirSync, statSync, statfsSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { SpexError, errnoCode } from "../errors";
import { resolveMainRoot } from "../git/main-root";
import { isSessionId, requireSessionId } from "./ids";
import { adoptLegacyStore, projectKey, realOrSelf, storeKeys } from "./key";
import { securePrivateStore } from "./private";
import { sha256Hex } from "../hash";
import { shellWord } from "../tmux/quote";

export { isSessionId, requireSessionId, sessionIdFromEnv } from "./ids";
export { legacyProjectKey, projectKey } from "./key";

/** The spex home last found usable (asked once per process, per value). */
let homeSeen: string | undefined;

/**
 * SPEX_HOME, else `~/.spex`. The home folder itself must exist: spex makes its
 * own folder in it, never the home folder (a HOME that names nothing — a
 * container's, cron's, a typo — would otherwise be made, as root under sudo).
 * Either way the folder must not lie on a kernel's virtual filesystem.
 */
export function spexHome(): string {
  const fromEnv = process.env.SPEX_HOME;
  if (fromEnv) {
    if (!isAbsolute(fromEnv)) throw relativeHome(fromEnv);
    return usable(resolve(fromEnv), refuseVirtualHome);
  }
  let base = "";
  try {
    base = homedir();
  } catch {
    // no HOME and no passwd entry: said below
  }
  return usable(join(base, ".spex"), (home) => {
    refuseMissingHome(base);
    refuseVirtualHome(home);
  });
}

/**
 * A SPEX_HOME that is not absolute names another store in every folder spex
 * runs from; a `~` nothing expanded (a Dockerfile's ENV, a systemd unit, a
 * crontab line) made a folder named `~` there. The hint names the folder meant.
 */
function relativeHome(value: string): SpexError {
  let meant = resolve(value);
  if (value === "~" || value.startsWith("~/")) {
    try {
      meant = join(homedir(), value.slice(1));
    } catch {
      // no home to expand it with: the folder it was read as here
    }
  }
  return new SpexError("spex_home_relative", `SPEX_HOME=${value} is not an absolute path${value.startsWith("~") ? " (nothing expanded its ~)" : ""}: each folder spex runs from would get a store of its own`, {
    hint: `set it to an absolute path, as \`export SPEX_HOME=${shellWord(meant)}\``,
    details: { home: value },
  });
}

function usable(home: string, check: (home: string) => void): string {
  if (home !== homeSeen) {
    check(home);
    homeSeen = home;
  }
  return home;
}

/** statfs types of /proc and /sys: mkdir there fails, and Node's recursive mkdir then retries forever (ENOENT under /proc). */
const VIRTUAL_FILESYSTEMS = new Map([
  [0x9fa0, "proc"],
  [0x62656572, "sysfs"],
]);

function refuseVirtualHome(home: string): void {
  // The folder, or the nearest folder above it that exists (where it would be made).
  for (let dir = home; ; dir = dirname(dir)) {
    let type: number;
    try {
      type = Number(statfsSync(dir).type);
    } catch (e) {
      const code = errnoCode(e);
      if ((code === "ENOENT" || code === "ENOTDIR") && dir !== dirname(dir)) continue;
      return;
    }
    const fs = VIRTUAL_FILESYSTEMS.get(type);
    if (!fs) return;
    throw new SpexError("spex_home_unusable", `SPEX_HOME ${home} is on ${fs}, a kernel's virtual filesystem, where spex can keep no state`, {
      hint: "point SPEX_HOME at a folder of your own on a disk (the default is ~/.spex)",
      details: { home, filesystem: fs },
    });
  }
}

function refuseMissingHome(base: string): void {
  const hint = "set HOME to your home folder, or point SPEX_HOME at a folder of your own (spex makes that one if it is missing)";
  if (!isAbsolute(base)) {
    throw new SpexError("home_missing", base ? `your home folder (HOME=${base}) is not an absolute path; spex keeps its state in ~/.spex` : "this process has no home folder (HOME is unset and the user has none); spex keeps its state in ~/.spex", { hint });
  }
  let st;
  try {
    st = statSync(base);
  } catch (e) {
    const code = errnoCode(e);
    if (code !== "ENOENT" && code !== "ENOTDIR") return;
  }
  if (st?.isDirectory()) return;
  throw new SpexError("home_missing", `your home folder ${base} (HOME) ${st ? "is not a folder" : "does not exist"}; spex keeps its state in ~/.spex and does not make a home folder`, { hint, details: { home: base } });
}

export interface ProjectStore {
  home: string;
  root: string;
  key: string;
  dir: string;
  sessionsDir: string;
  locksDir: string;
  queueDir: string;
  quarantineDir: string;
  receiptsDir: string;
}

/** The store of a main checkout, keyed by its real path (a store under the old key is adopted first). */
export function projectStore(mainRoot: string, home = spexHome()): ProjectStore {
  securePrivateStore(home);
  const real = realOrSelf(mainRoot);
  const key = projectKey(real);
  adoptLegacyStore(home, key, real);
  return storeForKey(home, key, mainRoot);
}

/** A store addressed by its folder name (enumeration gives the key; the root may be unknown). */
export function storeForKey(home: string, key: string, root: string): ProjectStore {
  const dir = join(home, "projects", key);
  return {
    home,
    root,
    key,
    dir,
    sessionsDir: join(dir, "sessions"),
    locksDir: join(dir, "locks"),
    queueDir: join(dir, "queue"),
    quarantineDir: join(dir, "quarantine"),
    receiptsDir: join(dir, "receipts"),
  };
}

export interface SessionPaths {
  dir: string;
  record: string;
  prompt: string;
  launch: string;
  agentPid: string;
  timeline: string;
  watchers: string;
  files: string;
  lastScreen: string;
  /** Left by a merge that landed (lib/sessions/merged.ts). */
  merged: string;
}

export function sessionPaths(store: ProjectStore, id: string): SessionPaths {
  // The one place an id becomes a session path: only a UUID gets this far.
  requireSessionId(id);
  // Plain concatenation, because `ls` builds these for every row and path.join costs a microsecond a call.
  const dir = `${store.sessionsDir}/${id}`;
  return {
    dir,
    record: `${dir}/session.json`,
    prompt: `${dir}/prompt`,
    launch: `${dir}/launch.sh`,
    agentPid: `${dir}/agent.pid`,
    timeline: `${dir}/timeline.ndjson`,
    watchers: `${dir}/watchers.json`,
    files: `${dir}/files.json`,
    lastScreen: `${dir}/last-screen.txt`,
    merged: `${dir}/merged.json`,
  };
}

export function recordLockPath(store: ProjectStore, id: string): string {
  return join(store.locksDir, `${requireSessionId(id)}.lock`);
}

export function projectLockPath(store: ProjectStore): string {
  return join(store.locksDir, "project.lock");
}

function resourceLockName(kind: string, value: string): string {
  const readable = value.replace(/[^A-Za-z0-9._-]+/g, "_").slice(-60);
  return `${kind}-${readable}-${sha256Hex(value).slice(0, 12)}.lock`;
}

/**
 * The resource locks of a session's branch and worktree path: create and close
 * both take them, so a close and a create of the same name never interleave.
 */
export function resourceLockPaths(store: ProjectStore, names: { branch: string; worktree_path: string }): string[] {
  const paths: string[] = [];
  if (names.branch) paths.push(join(store.locksDir, resourceLockName("branch", names.branch)));
  if (names.worktree_path) paths.push(join(store.locksDir, resourceLockName("worktree", names.worktree_path)));
  return paths;
}

/** Ids of every session folder that holds a record file (corrupt ones included); a folder not named by a UUID is no session. */
export function listSessionIds(store: ProjectStore): string[] {
  return sessionFolders(store)
    .map((f) => f.id)
    .filter((id) => hasRecordFile(`${store.sessionsDir}/${id}/session.json`));
}

/**
 * Each entry of the sessions folder named as a session, sorted by id, whether
 * or not a record is in it yet (a reader of every record tells absent ones
 * apart itself), and whether it is a folder itself rather than a link to one.
 */
export function sessionFolders(store: ProjectStore): { id: string; realFolder: boolean }[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(store.sessionsDir, { withFileTypes: true });
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return [];
    throw e;
  }
  const out: { id: string; realFolder: boolean }[] = [];
  for (const entry of entries) if (isSessionId(entry.name)) out.push({ id: entry.name, realFolder: entry.isDirectory() });
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

// lstat, not existsSync: existsSync answers false for EACCES or ELOOP too, which
// would make an unreadable record vanish from the list instead of surfacing.
function hasRecordFile(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch (e) {
    const code = errnoCode(e);
    if (code === "ENOENT" || code === "ENOTDIR") return false;
    throw e;
  }
}

/** Every project store under SPEX_HOME (for machine-wide views such as doctor and live). */
export function listProjectKeys(home = spexHome()): string[] {
  return storeKeys(join(home, "projects"));
}

/**
 * The project the caller is in: SPEX_PROJECT_ROOT (set by the launch script for
 * hooks) wins, else the main checkout containing cwd.
 */
export function currentProject(cwd = process.cwd()): ProjectStore {
  const hinted = process.env.SPEX_PROJECT_ROOT;
  const root = hinted ? resolveMainRoot(hinted) ?? hinted : resolveMainRoot(cwd);
  if (!root) {
    // A folder named with bytes that are not UTF-8 reaches spex as U+FFFD, a path that names nothing.
    if (!hinted && cwd.includes("\uFFFD") && !existsSync(cwd)) {
      throw new SpexError("path_not_utf8", `the path of this folder is not UTF-8 text (it reads as ${cwd}), and spex keeps paths as text`, {
        hint: "rename the folder, or the folder above it whose name is not UTF-8",
      });
    }
    throw new SpexError("not_a_git_repo", `${cwd} is not inside a git checkout`, {
      hint: "run spex from inside the repository whose sessions you want, or set SPEX_PROJECT_ROOT",
    });
  }
  return projectStore(root);
}
