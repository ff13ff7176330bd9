// The listing index (docs/records.md "The listing index"): empty files in the
// project's listing/ folder whose names carry what a listing would otherwise
// open every session's files to learn, so a Tab or `ls` reads one folder
// instead of several files per session. lib/record/listing.ts keeps it as the
// one writer writes; readers trust only what its rules make safe to trust,
// and read the session's own files for the rest.
//
//   <id>.<name>      the name the record carries ("" for none); percent-encoded
//   <id>~<preview>   the prompt's one-line preview, percent-encoded
//   <id>+<file>      that side file (usage.json, merged.json) may exist
//
// A Tab loads it, so it imports node:fs alone. Readers look entries up by
// the ids the sessions folder gives, so an entry whose first 36 characters
// are no id is never asked for and needs no check here.
import { lstatSync, readdirSync } from "node:fs";

/** The folder beside sessions/ that holds the entries. */
export const LISTING_FOLDER = "listing";

/** The side files a listing looks up for every row that the one writer writes (files.json is the agent's own). */
export const FLAGGED_SIDE_FILES = ["usage.json", "merged.json"] as const;
export type FlaggedSideFile = (typeof FLAGGED_SIDE_FILES)[number];

/** A file name holds 255 bytes; the id and its mark take 37. */
const ENCODED_MAX = 255 - 37;

/**
 * A name entry that stands for "read the record": a name too long for a file
 * name, or one encodeURIComponent refuses (a lone surrogate). It never
 * decodes, so a reader falls back to the record.
 */
const READ_THE_RECORD = "%%";

function encoded(text: string): string | undefined {
  try {
    const out = encodeURIComponent(text);
    return out.length > ENCODED_MAX ? undefined : out;
  } catch {
    return undefined;
  }
}

/** An upper-case letter as its escape (`A` → `%41`), which decodeURIComponent reads back; an escape stays as it is. */
const upperEscape = (match: string) => (match.length === 3 ? match : `%${match.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * The entry of a session whose record carries `name` ("" for no name). Its
 * upper-case letters are escaped too: on a file system that folds case (macOS
 * by default) `Auth` and `auth` would otherwise be one entry, and a rename
 * between them would find the old one and take it for the new. With only
 * lower-case letters outside the escapes (whose hex digits are always upper
 * case), two names never fold to one entry.
 */
export function nameEntry(id: string, name: string): string {
  const text = encoded(name)?.replace(/%[0-9A-F]{2}|[A-Z]/g, upperEscape);
  return `${id}.${text !== undefined && text.length <= ENCODED_MAX ? text : READ_THE_RECORD}`;
}

/** The entry of a session's prompt preview, or undefined for one no file name can hold (the row reads the prompt). */
export function previewEntry(id: string, preview: string): string | undefined {
  const text = encoded(preview);
  return text === undefined ? undefined : `${id}~${text}`;
}

/** The entry saying that the session's side file may exist. */
export function sideFileEntry(id: string, file: FlaggedSideFile): string {
  return `${id}+${file}`;
}

const DOT = 46;
const TILDE = 126;
const PLUS = 43;

/** Whether a file name in listing/ belongs to this session (any kind of entry). */
export function isEntryOf(file: string, id: string): boolean {
  const mark = file.charCodeAt(36);
  return file.length > 36 && (mark === DOT || mark === TILDE || mark === PLUS) && file.startsWith(id);
}

/** Whether a file name in listing/ is one of this session's name entries. */
export function isNameEntryOf(file: string, id: string): boolean {
  return file.charCodeAt(36) === DOT && isEntryOf(file, id);
}

/**
 * The entries' file names, for every reader. None when the folder is absent
 * or cannot be listed, and none when it is a link: like a record, the index
 * is never read through one (a link planted there would speak for every session).
 */
export function listingFiles(project: string): string[] {
  try {
    const folder = `${project}/${LISTING_FOLDER}`;
    if (!lstatSync(folder, { throwIfNoEntry: false })?.isDirectory()) return [];
    return readdirSync(folder);
  } catch {
    return [];
  }
}

/** What the index says of one session. */
export interface ListedSession {
  /**
   * The name, where the session has exactly one name entry that decodes;
   * null where it has several (a write under way, or one killed part way) or
   * one that does not decode; undefined where it has none. Only a string is
   * ever trusted.
   */
  name: string | null | undefined;
  /** The prompt's preview, when an entry holds it. */
  preview: string | undefined;
  /**
   * The side files that may exist. Only a session with a name entry has its
   * flags complete (lib/record/listing.ts makes them first): for any other,
   * every side file must be looked up.
   */
  sideFiles: Set<string>;
}

function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** Every session the entries speak of; anything in the folder that is not an entry (a temp file) is passed over. */
export function readListingEntries(files: Iterable<string>): Map<string, ListedSession> {
  const sessions = new Map<string, ListedSession>();
  for (const file of files) {
    if (file.length < 37) continue;
    const mark = file.charCodeAt(36);
    if (mark !== DOT && mark !== TILDE && mark !== PLUS) continue;
    const id = file.slice(0, 36);
    let listed = sessions.get(id);
    if (!listed) sessions.set(id, (listed = { name: undefined, preview: undefined, sideFiles: new Set() }));
    const rest = file.slice(37);
    if (mark === DOT) listed.name = listed.name === undefined ? decoded(rest) : null;
    else if (mark === TILDE) listed.preview = decoded(rest) ?? undefined;
    else listed.sideFiles.add(rest);
  }
  return sessions;
}

/**
 * Only the names (ListedSession.name's rules), for a reader that needs nothing
 * else: a Tab, which would otherwise decode every preview it never shows.
 */
export function readNameEntries(files: Iterable<string>): Map<string, string | null> {
  const names = new Map<string, string | null>();
  for (const file of files) {
    if (file.length < 37 || file.charCodeAt(36) !== DOT) continue;
    const id = file.slice(0, 36);
    names.set(id, names.has(id) ? null : decoded(file.slice(37)));
  }
  return names;
}

/** Whether the index vouches that this side file of the session is absent (no lookup needed). */
export function sideFileAbsent(listed: ListedSession | undefined, file: FlaggedSideFile): boolean {
  return listed !== undefined && listed.name !== undefined && !listed.sideFiles.has(file);
}
