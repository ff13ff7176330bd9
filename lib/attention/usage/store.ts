// A session's usage side file, `usage.json` in its store folder: each
// transcript read so far, how far (byte offset and file identity), and what
// it added up to by day and model. It is a cache of what the transcripts say
// (delete it and the next read starts over from their first byte), so it is
// replaced atomically through lib/nofollow but not fsynced.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { writeStoreFile } from "../../nofollow";
import { readJsonState } from "../../record";
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
  if (read.kind !== "ok" || !read.value || read.value.version !== 1 || !Array.isArray(read.value.sources)) return emptyUsage();
  return read.value;
}

export function writeUsage(store: ProjectStore, id: string, usage: UsageFile): void {
  writeStoreFile(usageFile(store, id), JSON.stringify(usage) + "\n");
}

/** Every source's buckets, added up. */
export function usageBuckets(usage: UsageFile): Buckets {
  const out: Buckets = {};
  for (const s of usage.sources) mergeBuckets(out, s.state.buckets);
  return out;
}
