// A session's usage side file, `usage.json` in its store folder: each
// transcript read so far, how far (byte offset and file identity), and what
// it added up to by day and model. It is a cache of what the transcripts say
// (delete it and the next read starts over from their first byte), so it is
// replaced atomically through lib/nofollow but not fsynced.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { writeStoreFile } from "../../nofollow";
import { flagSideFile, readJsonState } from "../../record";
import { type ProjectStore, sessionPaths } from "../../store";
import type { Harness, SourceState } from "./parse";
import { type Buckets, mergeBuckets } from "./tokens";

export interface UsageSource {
  harness: Harness;
  /** The conversation the file belongs to (a subagent file belongs to its session's). */
  nativeId: string;
  file: string;
  /** Bytes read: everything before this offset ends in a newline and has been counted. */
  offset: number;
  ino: number;
  state: SourceState;
}

export interface UsageFile {
  version: 1;
  sources: UsageSource[];
  /** When a read last added something. */
  updatedAt: string;
}

export function usageFile(store: ProjectStore, id: string): string {
  return join(sessionPaths(store, id).dir, "usage.json");
}

export function emptyUsage(): UsageFile {
  return { version: 1, sources: [], updatedAt: "" };
}

/** The stored usage, or an empty one when there is none or it cannot be read (it is rebuilt from the transcripts then). */
export function readUsage(store: ProjectStore, id: string): UsageFile {
  const file = usageFile(store, id);
  // Most sessions have no usage file: a check that cannot throw says so, where a failed read
  // builds an error object per row of a listing (\`ls\` reads this for every session).
  if (!existsSync(file)) return emptyUsage();
  let read;
  try {
    read = readJsonState<UsageFile>(file);
  } catch {
    return emptyUsage();
  }
  return read.kind === "ok" && isUsageFile(read.value) ? read.value : emptyUsage();
}

// The file is spex's own, but a hand edit, a crash of an older writer or a planted file must
// cost the row its usage (recounted from the transcripts), never the listing: checked in full.
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isCount = (v: unknown): boolean => typeof v === "number" && Number.isFinite(v) && v >= 0;
const isTokens = (v: unknown): boolean => isObject(v) && isCount(v.input) && isCount(v.output) && isCount(v.cacheRead) && isCount(v.cacheWrite);
const isBuckets = (v: unknown): boolean => isObject(v) && Object.values(v).every((models) => isObject(models) && Object.values(models).every(isTokens));
const isCounted = (v: unknown): boolean => isObject(v) && typeof v.id === "string" && typeof v.day === "string" && typeof v.model === "string" && isTokens(v.tokens);
const isSource = (v: unknown): boolean =>
  isObject(v) &&
  (v.harness === "claude" || v.harness === "codex" || v.harness === "gemini") &&
  typeof v.nativeId === "string" &&
  typeof v.file === "string" &&
  isCount(v.offset) &&
  isCount(v.ino) &&
  isObject(v.state) &&
  isBuckets(v.state.buckets) &&
  Array.isArray(v.state.recent) &&
  v.state.recent.every(isCounted) &&
  (v.state.model === undefined || typeof v.state.model === "string") &&
  (v.state.total === undefined || isTokens(v.state.total));

export function isUsageFile(v: unknown): v is UsageFile {
  return isObject(v) && v.version === 1 && Array.isArray(v.sources) && v.sources.every(isSource) && typeof v.updatedAt === "string";
}

export function writeUsage(store: ProjectStore, id: string, usage: UsageFile): void {
  // Its flag in the listing index first (lib/record/listing.ts): a listing looks up only flagged usage files.
  flagSideFile(store.dir, id, "usage.json");
  writeStoreFile(usageFile(store, id), JSON.stringify(usage) + "\n");
}

/** Every source's buckets, added up. */
export function usageBuckets(usage: UsageFile): Buckets {
  const out: Buckets = {};
  for (const s of usage.sources) mergeBuckets(out, s.state.buckets);
  return out;
}
