// The one writer and the three readings (DESIGN.md §1.1, §1.3). A record is
// the record of its folder: a session.json that is not a regular file, sits
// in a linked folder, is not UTF-8 or names another id reads corrupt, and the
// writer never lands bytes through a link.
import { closeSync, constants, existsSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, type Stats } from "node:fs";
import { basename, dirname } from "node:path";
import { SpexError, errnoCode } from "../errors";
import { writeFileNoFollow } from "../nofollow";
import { parseRecord, serializeRecord } from "./codec";
import { nameEntryAfterRecord, nameEntryBeforeRecord, planNameEntry } from "./listing";
import type { PendingOriginal, SessionRecord } from "./schema";

export type RecordReading =
  | { kind: "absent"; id: string; file: string }
  | {
      kind: "corrupt";
      id: string;
      file: string;
      error: string;
      /** The system refused the read (EACCES, EIO, …): the bytes were never seen. */
      unreadable?: boolean;
    }
  | {
      kind: "ok";
      id: string;
      file: string;
      record: SessionRecord;
      /** The frozen original while the readiness fence is up. */
      pending: PendingOriginal | null;
      /** Derived, never stored: the recorded worktree is gone. */
      retired: boolean;
    };

// O_NONBLOCK: a fifo planted as session.json must not hang the reader.
const READ_NO_LINK = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
// fatal: invalid UTF-8 is corrupt, never decoded into U+FFFD; ignoreBOM: a BOM stays and fails the parse.
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function fileKind(st: Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isSymbolicLink()) return "a symbolic link";
  if (st.isFIFO()) return "a fifo";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  return "not a regular file";
}

/** lstat that answers undefined for a missing file; anything else it cannot say is left to the open below. */
function lstatOrAbsent(file: string): Stats | undefined | null {
  try {
    return lstatSync(file, { throwIfNoEntry: false });
  } catch {
    return null;
  }
}

/**
 * All of a regular file's bytes, read for the size its fstat gave: one read
 * where readFileSync(fd) would fstat again and read once more to meet the end
 * (a listing reads every record). A short read of a regular file is its end;
 * one that grew since is read on.
 */
function readRegularFile(fd: number, size: number): Buffer {
  let buf = Buffer.allocUnsafe(size + 1);
  let n = 0;
  for (;;) {
    const got = readSync(fd, buf, n, buf.length - n, null);
    n += got;
    if (got === 0 || n < buf.length) return buf.subarray(0, n);
    const bigger = Buffer.allocUnsafe(buf.length * 2);
    buf.copy(bigger);
    buf = bigger;
  }
}

/**
 * The bytes of a regular file reached without following a link at its last
 * component or its folder; a string says why there are none.
 */
export function readOwnBytes(file: string, opts: { oftenAbsent?: boolean } = {}): { bytes: Buffer } | { absent: true } | { refused: string; unreadable: boolean } {
  // A file most sessions lack (files.json, merged.json): one stat that cannot throw says so, where a
  // failed open would build an error object per row of a listing.
  if (opts.oftenAbsent && lstatOrAbsent(file) === undefined) return { absent: true };
  let fd: number;
  try {
    fd = openSync(file, READ_NO_LINK);
  } catch (e) {
    const code = errnoCode(e);
    if (code === "ENOENT" || code === "ENOTDIR") return { absent: true };
    if (code === "ELOOP") return { refused: `${basename(file)} is a symbolic link`, unreadable: false };
    // A socket refuses open (ENXIO): say what is there rather than that it cannot be read.
    const st = lstatOrAbsent(file);
    if (st && !st.isFile()) return { refused: `${basename(file)} is ${fileKind(st)}, not a regular file`, unreadable: false };
    return { refused: `unreadable: ${(e as Error).message}`, unreadable: true };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { refused: `${basename(file)} is ${fileKind(st)}, not a regular file`, unreadable: false };
    if (lstatSync(dirname(file)).isSymbolicLink()) return { refused: `its folder ${dirname(file)} is a symbolic link`, unreadable: false };
    return { bytes: readRegularFile(fd, st.size) };
  } catch (e) {
    return { refused: `unreadable: ${(e as Error).message}`, unreadable: true };
  } finally {
    closeSync(fd);
  }
}

/** Absent, corrupt or ok. A read the system refuses is corrupt too, marked unreadable: one record never stops the project. */
export function readRecordFile(file: string, id: string): RecordReading {
  const got = readOwnBytes(file);
  if ("absent" in got) return { kind: "absent", id, file };
  if ("refused" in got) return { kind: "corrupt", id, file, error: got.refused, ...(got.unreadable ? { unreadable: true } : {}) };
  let text: string;
  try {
    text = UTF8.decode(got.bytes);
  } catch {
    return { kind: "corrupt", id, file, error: "the record is not valid UTF-8" };
  }
  return recordOfText(text, id, file);
}

/**
 * A record of a listing, whose session folder the listing saw to be a real
 * folder (not a link): one lstat says a regular file is there, one read takes
 * its text (a link at the last moment still fails the open). Three file calls
 * a record instead of six. Anything else (not a regular file, a text that is
 * not clean UTF-8 or starts with a BOM, a record that does not parse or is
 * another folder's) is read again by readRecordFile, so every corrupt record
 * reads exactly as it does alone.
 */
export function readListedRecordFile(file: string, id: string, exists: (path: string) => boolean = existsSync): RecordReading {
  const st = lstatOrAbsent(file);
  if (st === undefined) return { kind: "absent", id, file };
  if (st?.isFile()) {
    let text: string | undefined;
    try {
      text = readFileSync(file, { encoding: "utf8", flag: READ_NO_LINK as unknown as string });
    } catch {
      // the careful read below says why
    }
    // U+FFFD is what a decoder that does not refuse puts for bytes that are not UTF-8.
    if (text !== undefined && !text.includes("\uFFFD") && text.charCodeAt(0) !== 0xfeff) {
      const reading = recordOfText(text, id, file, exists);
      if (reading.kind === "ok") return reading;
    }
  }
  return readRecordFile(file, id);
}

function recordOfText(text: string, id: string, file: string, exists: (path: string) => boolean = existsSync): RecordReading {
  try {
    const { record, pending } = parseRecord(text);
    if (record.session_id !== id) {
      return { kind: "corrupt", id, file, error: `its session_id ${JSON.stringify(record.session_id)} is not its folder's id ${id}` };
    }
    const retired = record.worktree_path !== "" && !exists(record.worktree_path);
    return { kind: "ok", id, file, record, pending, retired };
  } catch (e) {
    return { kind: "corrupt", id, file, error: (e as Error).message };
  }
}

/**
 * Land a record by atomic replace: temp file, fsync, rename, fsync of the
 * folder. Every byte of session.json comes from here. Nothing is written
 * through a link: a linked session folder or session.json is `unsafe_path`.
 */
export function writeRecordFile(file: string, record: SessionRecord): void {
  const text = serializeRecord(record);
  // Never land bytes that would read back corrupt (an enum outside its set, a malformed fence, another folder's id).
  parseRecord(text);
  const folder = dirname(file);
  if (basename(folder) !== record.session_id) {
    throw new SpexError("record_corrupt", `refusing to write session ${record.session_id} into ${file}: a record lives in its own folder`, {
      hint: "this is a bug in spex; nothing was written",
    });
  }
  // The listing index (./listing.ts): the name entry is kept in step with the name this record carries.
  const names = planNameEntry(file, record.session_id, record.name);
  nameEntryBeforeRecord(names);
  writeFileNoFollow(dirname(folder), `${basename(folder)}/${basename(file)}`, text, { mode: 0o644, forceMode: true, durable: true });
  nameEntryAfterRecord(names);
}

/**
 * Land any other small JSON state file (queue entries, watchers, coordination
 * lists) the same way as a record: atomic replace, fsync, fsync of the folder.
 */
export function writeJsonDurably(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileNoFollow(dirname(file), basename(file), JSON.stringify(value, null, 2) + "\n", { mode: 0o644, forceMode: true, durable: true });
}

/** A small JSON state file read three ways, like a record: absent, corrupt (with the parse error), or its value. */
export type JsonReading<T> = { kind: "absent" } | { kind: "corrupt"; error: string } | { kind: "ok"; value: T };

export function readJsonState<T>(file: string): JsonReading<T> {
  // As a record is read: never through a link, and a fifo, folder or socket in its place is corrupt, not a hang or a crash.
  const got = readOwnBytes(file);
  if ("absent" in got) return { kind: "absent" };
  if ("refused" in got) return { kind: "corrupt", error: got.refused };
  try {
    return { kind: "ok", value: JSON.parse(got.bytes.toString("utf8")) as T };
  } catch (e) {
    return { kind: "corrupt", error: (e as Error).message };
  }
}

/** The record as every reader shows it: while the fence is up, the frozen original. */
export function publicRecord(record: SessionRecord, pending: PendingOriginal | null): SessionRecord {
  if (!pending) return record;
  return {
    ...record,
    status: pending.status,
    proposal: pending.proposal,
    note: pending.note,
    stopped: pending.stopped,
    archived: pending.archived,
  };
}
