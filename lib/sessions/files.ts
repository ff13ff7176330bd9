// The files projection of a session object (seed 001): what the session
// declared in its own files.json, read the way a record is read (a regular
// file of the session folder, never through a link). A row carries a bounded
// slice so a listing stays proportional to the number of sessions.
import { readOwnBytes } from "../record";

/** At most this many paths ride in a row; the file itself keeps them all. */
export const FILES_IN_ROW = 100;

/**
 * The declared paths: `files.json` holds a JSON array, or `{"files": [...]}`,
 * of path strings (or `{path}` objects). Absent is `[]`; a file that cannot be
 * read or parsed is `null`, never guessed at.
 */
export function readDeclaredFiles(file: string): string[] | null {
  const got = readOwnBytes(file, { oftenAbsent: true });
  if ("absent" in got) return [];
  if ("refused" in got) return null;
  let value: unknown;
  try {
    value = JSON.parse(got.bytes.toString("utf8"));
  } catch {
    return null;
  }
  const list = Array.isArray(value) ? value : value && typeof value === "object" ? (value as { files?: unknown }).files : undefined;
  if (!Array.isArray(list)) return null;
  const paths: string[] = [];
  for (const entry of list) {
    const path = typeof entry === "string" ? entry : entry && typeof entry === "object" ? (entry as { path?: unknown }).path : undefined;
    if (typeof path !== "string") return null;
    if (paths.length < FILES_IN_ROW) paths.push(path);
  }
  return paths;
}
