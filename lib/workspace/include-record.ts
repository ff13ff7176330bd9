// Which ignored files a create copied into its worktree (`included.json` in
// the session's store folder), with each copy's digest: `show` lists them, and
// close does not count a copy that is still exactly what spex put there as
// the session's work (it is the main checkout's file, not the agent's).
import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../hash";
import { writeStoreFile } from "../nofollow";
import { readJsonState } from "../record";
import { type ProjectStore, sessionPaths } from "../store";

export interface IncludedFiles {
  /** Copied, relative to the worktree's top, with their size and SHA-256. */
  copied: { path: string; bytes: number; sha256: string }[];
  /** Matched and left out, with why: a link, not a regular file, too large, already in the worktree. */
  skipped: { path: string; reason: string }[];
}

export function includedPath(store: ProjectStore, id: string): string {
  return `${sessionPaths(store, id).dir}/included.json`;
}

export function writeIncluded(store: ProjectStore, id: string, files: IncludedFiles): string {
  const file = includedPath(store, id);
  writeStoreFile(file, JSON.stringify(files, null, 2) + "\n");
  return file;
}

/** The side file as spex writes it; anything else reads as nothing copied (show and close then count every file). */
export function readIncluded(store: ProjectStore, id: string): IncludedFiles | undefined {
  const read = readJsonState<Record<string, unknown>>(includedPath(store, id));
  if (read.kind !== "ok" || typeof read.value !== "object" || read.value === null) return undefined;
  const { copied, skipped } = read.value;
  const entry = (e: unknown, field: string) => typeof e === "object" && e !== null && typeof (e as Record<string, unknown>).path === "string" && typeof (e as Record<string, unknown>)[field] === (field === "bytes" ? "number" : "string");
  const ok =
    Array.isArray(copied) &&
    Array.isArray(skipped) &&
    copied.every((e) => entry(e, "sha256") && entry(e, "bytes")) &&
    skipped.every((e) => entry(e, "reason"));
  return ok ? (read.value as unknown as IncludedFiles) : undefined;
}

/**
 * A predicate over worktree-relative paths: true for a file spex copied in at
 * create that is still byte for byte that copy (a regular file, never read
 * through a link). An edited, replaced or linked one is the session's work.
 */
export function unchangedIncluded(store: ProjectStore, id: string, worktree: string): (rel: string) => boolean {
  const copied = new Map((readIncluded(store, id)?.copied ?? []).map((c) => [c.path, c.sha256]));
  if (copied.size === 0) return () => false;
  return (rel) => {
    const digest = copied.get(rel);
    if (!digest) return false;
    try {
      const path = join(worktree, rel);
      if (!lstatSync(path).isFile()) return false;
      return sha256Hex(readFileSync(path)) === digest;
    } catch {
      return false;
    }
  };
}
