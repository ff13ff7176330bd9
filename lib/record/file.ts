// The one writer and the three readings (DESIGN.md §1.1, §1.3).
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, constants } from "node:fs";
import { dirname } from "node:path";
import writeFileAtomic from "write-file-atomic";
import { SpexError, errnoCode } from "../errors";
import { parseRecord, serializeRecord } from "./codec";
import type { PendingOriginal, SessionRecord } from "./schema";

export type RecordReading =
  | { kind: "absent"; id: string; file: string }
  | { kind: "corrupt"; id: string; file: string; error: string }
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

/** Absent, corrupt or ok; any other failure (EACCES, EIO, …) throws. */
export function readRecordFile(file: string, id: string): RecordReading {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    const code = errnoCode(e);
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "absent", id, file };
    // Neither absent nor corrupt: a fault that must surface, naming the file (Node's EISDIR message does not).
    throw new SpexError("record_unreadable", `cannot read the record ${file}: ${(e as Error).message}`, {
      hint: "check that file's type and permissions; nothing was changed",
      details: { file, errno: code ?? null },
    });
  }
  try {
    const { record, pending } = parseRecord(text);
    const retired = record.worktree_path !== "" && !existsSync(record.worktree_path);
    return { kind: "ok", id, file, record, pending, retired };
  } catch (e) {
    return { kind: "corrupt", id, file, error: (e as Error).message };
  }
}

export function fsyncDir(dir: string): void {
  const fd = openSync(dir, constants.O_RDONLY);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Land a record by atomic replace: temp file, fsync, rename, fsync of the
 * folder. Every byte of session.json comes from here.
 */
export function writeRecordFile(file: string, record: SessionRecord): void {
  const text = serializeRecord(record);
  // Never land bytes that would read back corrupt (an enum outside its set, a malformed fence).
  parseRecord(text);
  writeFileAtomic.sync(file, text, { fsync: true, mode: 0o644 });
  fsyncDir(dirname(file));
}

/**
 * Land any other small JSON state file (queue entries, watchers, coordination
 * lists) the same way as a record: atomic replace, fsync, fsync of the folder.
 */
export function writeJsonDurably(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic.sync(file, JSON.stringify(value, null, 2) + "\n", { fsync: true, mode: 0o644 });
  fsyncDir(dirname(file));
}

/** A small JSON state file read three ways, like a record: absent, corrupt (with the parse error), or its value. */
export type JsonReading<T> = { kind: "absent" } | { kind: "corrupt"; error: string } | { kind: "ok"; value: T };

export function readJsonState<T>(file: string): JsonReading<T> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    const code = errnoCode(e);
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "absent" };
    throw e;
  }
  try {
    return { kind: "ok", value: JSON.parse(text) as T };
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
