// Which ignored files a create copied into its worktree (`included.json` in
// the session's store folder), with each copy's digest: `show` lists them, and
// close does not count a copy that is still exactly what spex put there as
// the session's work (it is the main checkout's file, not the agent's).
import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { errnoCode } from "../errors";
import { sha256Hex } from "../hash";
import { writeStoreFile } from "../nofollow";
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

export function readIncluded(store: ProjectStore, id: string): IncludedFiles | undefined {
  try {
    const v = JSON.parse(readFileSync(includedPath(store, id), "utf8"));
    return v && Array.isArray(v.copied) && Array.isArray(v.skipped) ? (v as IncludedFiles) : undefined;
  } catch (e) {
    if (errnoCode(e) === "ENOENT" || e instanceof SyntaxError) return undefined;
    throw e;
  }
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
