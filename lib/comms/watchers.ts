// watchers.json (DESIGN.md §7): owned by the watched session and written only
// under its record lock, so the record writer finds its watchers without a
// second index. Each watcher id carries a set of sources: `manual` from
// `watch`, `parent` from the tree. The entry lives while either remains.
import { SpexError } from "../errors";
import { withLock } from "../lock";
import { readSession, refuseUnusable } from "../record";
import { type ProjectStore, listSessionIds, recordLockPath, sessionPaths } from "../store";
import { readJsonFile, writeJsonDurably } from "./files";

export const WATCH_SOURCES = ["manual", "parent"] as const;
export type WatchSource = (typeof WATCH_SOURCES)[number];

export interface WatcherEntry {
  watcher: string;
  sources: WatchSource[];
  createdAt: string;
}

type RawEntry = string | { watcher?: unknown; sources?: unknown; createdAt?: unknown };

function rawEntries(store: ProjectStore, watched: string): RawEntry[] {
  const file = sessionPaths(store, watched).watchers;
  const raw = readJsonFile<unknown>(file);
  if (raw === undefined) return [];
  if (raw === "corrupt" || !Array.isArray(raw)) {
    throw new SpexError("watchers_corrupt", `${file} cannot be parsed`, {
      hint: "inspect or remove the file; watch relations can be recreated with `spex session watch`",
      details: { file },
    });
  }
  return raw as RawEntry[];
}

/**
 * The watchers of a session. A legacy row without sources reads as `parent`
 * when its watcher is the record's parent, else as `manual`.
 */
export function readWatchers(store: ProjectStore, watched: string, parent?: string): WatcherEntry[] {
  const raw = rawEntries(store, watched);
  if (raw.length === 0) return [];
  let parentId = parent;
  if (parentId === undefined) {
    const reading = readSession(store, watched);
    parentId = reading.kind === "ok" ? reading.record.parent : "";
  }
  const out: WatcherEntry[] = [];
  for (const r of raw) {
    const watcher = typeof r === "string" ? r : typeof r?.watcher === "string" ? r.watcher : "";
    if (!watcher) continue;
    const listed = typeof r === "object" && Array.isArray(r.sources) ? r.sources.filter((s): s is WatchSource => (WATCH_SOURCES as readonly unknown[]).includes(s)) : undefined;
    const sources: WatchSource[] = listed && listed.length > 0 ? [...new Set(listed)].sort() : [watcher === parentId ? "parent" : "manual"];
    const createdAt = typeof r === "object" && typeof r.createdAt === "string" ? r.createdAt : "";
    const existing = out.find((e) => e.watcher === watcher);
    if (existing) existing.sources = [...new Set([...existing.sources, ...sources])].sort();
    else out.push({ watcher, sources, createdAt });
  }
  return out;
}

function writeWatchers(store: ProjectStore, watched: string, entries: WatcherEntry[]): void {
  writeJsonDurably(sessionPaths(store, watched).watchers, entries);
}

export interface SourceChange {
  watcher: string;
  before: WatchSource[];
  after: WatchSource[];
}

/** Add or remove one source of one watcher. The caller holds the watched session's record lock. */
export function editWatcherUnderLock(store: ProjectStore, watched: string, watcher: string, source: WatchSource, op: "add" | "remove", parent?: string): SourceChange {
  const entries = readWatchers(store, watched, parent);
  const entry = entries.find((e) => e.watcher === watcher);
  const before = entry ? [...entry.sources] : [];
  if (op === "add") {
    if (entry) entry.sources = [...new Set([...entry.sources, source])].sort();
    else entries.push({ watcher, sources: [source], createdAt: new Date().toISOString() });
  } else if (entry) {
    entry.sources = entry.sources.filter((s) => s !== source);
  }
  const kept = entries.filter((e) => e.sources.length > 0);
  const after = kept.find((e) => e.watcher === watcher)?.sources ?? [];
  if (before.join() !== after.join() || op === "add") writeWatchers(store, watched, kept);
  return { watcher, before, after };
}

function refuseSelfWatch(watched: string, watcher: string): void {
  if (watched === watcher) {
    throw new SpexError("watch_self", "a session cannot watch itself", { hint: "name another session", httpStatus: 400 });
  }
}

/** `watcherId` follows `watchedId` through `source`. Takes the watched session's record lock. */
export async function addWatcher(store: ProjectStore, watchedId: string, watcherId: string, source: WatchSource): Promise<SourceChange> {
  refuseSelfWatch(watchedId, watcherId);
  return withLock(
    recordLockPath(store, watchedId),
    () => {
      const reading = readSession(store, watchedId);
      refuseUnusable(reading, { allowRetired: true });
      return editWatcherUnderLock(store, watchedId, watcherId, source, "add", reading.record.parent);
    },
    { purpose: `watch ${watchedId}` },
  );
}

/** The same, for a caller that already holds the watched session's record lock (create). */
export function addWatcherUnderLock(store: ProjectStore, watchedId: string, watcherId: string, source: WatchSource): SourceChange {
  refuseSelfWatch(watchedId, watcherId);
  return editWatcherUnderLock(store, watchedId, watcherId, source, "add");
}

export async function removeWatcherSource(store: ProjectStore, watchedId: string, watcherId: string, source: WatchSource): Promise<SourceChange> {
  return withLock(
    recordLockPath(store, watchedId),
    () => {
      const reading = readSession(store, watchedId);
      const parent = reading.kind === "ok" ? reading.record.parent : "";
      return editWatcherUnderLock(store, watchedId, watcherId, source, "remove", parent);
    },
    { purpose: `unwatch ${watchedId}` },
  );
}

export interface WatchRelation extends WatcherEntry {
  watched: string;
}

/** Every watch relation of the project (corrupt watcher files are skipped). */
export function listWatchRelations(store: ProjectStore): WatchRelation[] {
  const out: WatchRelation[] = [];
  for (const id of listSessionIds(store)) {
    let entries: WatcherEntry[];
    try {
      entries = readWatchers(store, id);
    } catch {
      continue;
    }
    for (const e of entries) out.push({ watched: id, ...e });
  }
  return out;
}
