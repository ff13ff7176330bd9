// Writes into a worktree, a checkout or its git folder never go through a
// symbolic link (DESIGN.md §13): a base branch is untrusted, and a tracked link
// named like a file spex writes would carry the write outside the repository.
// Every folder from the trusted root down and the file itself are checked with
// lstat; the file is opened O_NOFOLLOW, and a replace lands by rename (which
// replaces a name, never follows it).
import { closeSync, constants, fchmodSync, fstatSync, fsyncSync, ftruncateSync, lstatSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { dirname, isAbsolute, join, posix, relative, sep } from "node:path";
import { SpexError, errnoCode } from "../errors";
import { randomHex } from "../hash";
import { faultPoint } from "../faults";

function unsafePath(path: string, what: string): SpexError {
  return new SpexError("unsafe_path", `${path} is ${what}; spex does not write through it`, {
    hint: "remove or replace it (a base branch may have planted it), then try again",
    details: { path },
  });
}

/** lstat, or undefined when nothing is there (a dangling link is something). */
export function lstatOrAbsent(path: string) {
  try {
    return lstatSync(path);
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return undefined;
    throw e;
  }
}

/**
 * Refuse (`unsafe_path`) unless every folder of `rel` under `root` is absent or
 * a real folder and its last part is absent or a regular file (a real folder
 * with `last = "folder"`). `root` is trusted as it is. Returns the number of
 * parts that exist.
 */
export function refuseLinks(root: string, rel: string, last: "file" | "folder" = "file"): number {
  const parts = partsOf(root, rel);
  let path = root;
  for (let i = 0; i < parts.length; i++) {
    path = join(path, parts[i]!);
    const st = lstatOrAbsent(path);
    if (!st) return i;
    const folder = i < parts.length - 1 || last === "folder";
    if (st.isSymbolicLink()) throw unsafePath(path, "a symbolic link");
    if (folder && !st.isDirectory()) throw unsafePath(path, "not a folder");
    if (!folder && !st.isFile()) throw unsafePath(path, "not a regular file");
  }
  return parts.length;
}

/** The trusted root and the relative path of `file`: `root` when the file lies under it, else the file's own folder. */
export function splitUnder(root: string, file: string): { root: string; rel: string } {
  const rel = relative(root, file);
  if (rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel)) return { root, rel };
  const cut = file.lastIndexOf(sep);
  return { root: file.slice(0, cut) || sep, rel: file.slice(cut + 1) };
}

/**
 * `path` (relative to `root`, or absolute) as a normalized path inside `root`:
 * "" for `root` itself, undefined when it leaves `root`. Lexical only: links
 * are checked where the path is used (refuseLinks, mkdirNoFollow).
 */
export function relativeInside(root: string, path: string): string | undefined {
  const rel = isAbsolute(path) ? relative(root, path) : path;
  const normal = posix.normalize(rel.replace(/\\/g, "/")).replace(/\/+$/, "");
  if (normal === "." || normal === "") return "";
  if (normal === ".." || normal.startsWith("../") || isAbsolute(normal)) return undefined;
  return normal;
}

function partsOf(root: string, rel: string): string[] {
  const parts = rel.split(/[\\/]+/).filter((p) => p !== "" && p !== ".");
  if (parts.length === 0 || parts.includes("..")) throw unsafePath(join(root, rel), `not a path inside ${root}`);
  return parts;
}

/** Create the missing folders of `parts` under `root` one at a time, never through a link; returns the deepest. */
function makeFolders(root: string, parts: string[]): string {
  let path = root;
  for (const part of parts) {
    path = join(path, part);
    try {
      mkdirSync(path);
    } catch (e) {
      if (errnoCode(e) !== "EEXIST") throw e;
      const st = lstatSync(path);
      if (st.isSymbolicLink() || !st.isDirectory()) throw unsafePath(path, st.isSymbolicLink() ? "a symbolic link" : "not a folder");
    }
  }
  return path;
}

/** Create the missing folders above the last part of `rel`; returns the full path of `rel`. */
function makeParents(root: string, rel: string): string {
  const parts = partsOf(root, rel);
  return join(makeFolders(root, parts.slice(0, -1)), parts[parts.length - 1]!);
}

/** Make the folder `rel` under `root` (and its parents) without going through a link. */
export function mkdirNoFollow(root: string, rel: string): string {
  refuseLinks(root, rel, "folder");
  return makeFolders(root, partsOf(root, rel));
}

/** The file's text, or undefined when absent; refuses a link anywhere on the way. */
export function readFileNoFollow(root: string, rel: string): string | undefined {
  if (refuseLinks(root, rel) < partsOf(root, rel).length) return undefined;
  const fd = openNoFollow(join(root, rel), constants.O_RDONLY);
  try {
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

function openNoFollow(path: string, flags: number, mode?: number): number {
  try {
    return openSync(path, flags | constants.O_NOFOLLOW, mode);
  } catch (e) {
    if (errnoCode(e) === "ELOOP") throw unsafePath(path, "a symbolic link");
    throw e;
  }
}

/**
 * Write all of `text` at the file's offset. A write may take only part of the
 * bytes and say so with no error (a disk with room for some of them): one
 * call would leave the rest unwritten and report success. Looping makes the
 * next call fail with the real cause (ENOSPC, EDQUOT); a call that takes
 * nothing and says nothing is an error too.
 */
export function writeAll(fd: number, text: string | Uint8Array, progress: { written: number } = { written: 0 }): void {
  const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text;
  while (progress.written < bytes.length) {
    const n = writeSync(fd, bytes, progress.written, bytes.length - progress.written);
    if (n <= 0) throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", errno: -28, syscall: "write" });
    progress.written += n;
  }
}

/** Make a rename or a new name in `dir` durable (rename alone does not). */
export function fsyncDir(dir: string): void {
  const fd = openSync(dir, constants.O_RDONLY);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A temp file of writeFileNoFollow: `.<name>.spex-<pid of its writer>-<hex>.tmp`. */
const TEMP = /^\..+\.spex-([1-9][0-9]*)-[0-9a-f]+\.tmp$/;

/** How old a temp file must be before it may be cleared: a live writer holds one for milliseconds. */
export const STALE_TEMP_MS = 60 * 60 * 1000;

/** Whether a process with this pid exists here (EPERM: it does, another user's). */
function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errnoCode(e) !== "ESRCH";
  }
}

/**
 * The temp files in `dir` a killed writer left behind, provably: named as
 * writeFileNoFollow names them, a regular file of this user, untouched for
 * STALE_TEMP_MS, and its writer's pid names no process. A writer still
 * writing (its pid alive, or a file that young) is never among them.
 */
export function staleTemps(dir: string, now = Date.now()): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
  const out: string[] = [];
  for (const name of names) {
    const pid = TEMP.exec(name)?.[1];
    if (!pid) continue;
    const path = join(dir, name);
    const st = lstatOrAbsent(path);
    if (!st?.isFile() || (uid !== undefined && st.uid !== uid)) continue;
    if (now - st.mtimeMs < STALE_TEMP_MS || pidExists(Number(pid))) continue;
    out.push(path);
  }
  return out;
}

/** Remove what staleTemps finds; never fails the caller (a file gone meanwhile is fine). */
export function clearStaleTemps(dir: string): void {
  let stale: string[];
  try {
    stale = staleTemps(dir);
  } catch {
    return; // a folder that changed under the scan: the next write looks again
  }
  for (const path of stale) {
    try {
      unlinkSync(path);
    } catch {
      // gone already, or not ours to remove after all: left as it is
    }
  }
}

/**
 * Replace (or create) `rel` under `root` with `text`: written beside it, then
 * renamed over it. Keeps an existing file's mode; `mode` applies to a new file
 * (or always, with `forceMode`). `durable` fsyncs the file before the rename
 * and its folder after (the store's records and state files).
 */
export function writeFileNoFollow(root: string, rel: string, text: string | Uint8Array, opts: { mode?: number; forceMode?: boolean; durable?: boolean } = {}): string {
  refuseLinks(root, rel);
  const file = makeParents(root, rel);
  const existing = lstatOrAbsent(file);
  const mode = existing && !opts.forceMode ? existing.mode & 0o7777 : (opts.mode ?? 0o644);
  const cut = file.lastIndexOf(sep);
  const tmp = `${file.slice(0, cut)}${sep}.${file.slice(cut + 1)}.spex-${process.pid}-${randomHex(4)}.tmp`;
  const fd = openNoFollow(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  try {
    try {
      // Whole or not at all: a temp file cut short by a full disk must never be renamed over the file.
      writeAll(fd, text);
      fchmodSync(fd, mode);
      if (opts.durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    faultPoint("temp-written");
    // Checked again just before the rename: a link that appeared meanwhile is refused, not replaced.
    refuseLinks(root, rel);
    renameSync(tmp, file);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // already renamed or never made
    }
    throw e;
  }
  if (opts.durable) {
    fsyncDir(dirname(file));
    // The store's files are written here again and again: each write clears what a writer killed
    // between its temp file and the rename left in the same folder (one readdir).
    clearStaleTemps(dirname(file));
  }
  return file;
}

/** Append `text` to `rel` under `root` (created when absent); never through a link. `durable` fsyncs the file. */
export function appendFileNoFollow(root: string, rel: string, text: string, mode = 0o644, opts: { durable?: boolean } = {}): void {
  const existed = refuseLinks(root, rel) === partsOf(root, rel).length;
  const file = makeParents(root, rel);
  const fd = openNoFollow(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, mode);
  try {
    const before = fstatSync(fd).size;
    const progress = { written: 0 };
    try {
      writeAll(fd, text, progress);
    } catch (e) {
      // A line cut short by a full disk is taken back, so the failure leaves the file as it was
      // (unless another writer appended meanwhile: then the torn piece stays for readers to skip).
      try {
        if (!existed && before === 0 && fstatSync(fd).size === progress.written) unlinkSync(file);
        else if (progress.written > 0 && fstatSync(fd).size === before + progress.written) ftruncateSync(fd, before);
      } catch {
        // the error below says what happened
      }
      throw e;
    }
    if (opts.durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

// A file in one of the store's own folders (a session's folder, the receipts
// folder): the store above is trusted as reached (SPEX_HOME may be a link),
// the folder and the file are checked like any other write.
function storeFolderSplit(file: string): { root: string; rel: string } {
  const folder = dirname(file);
  mkdirSync(dirname(folder), { recursive: true });
  return { root: dirname(folder), rel: `${folder.slice(folder.lastIndexOf(sep) + 1)}${sep}${file.slice(file.lastIndexOf(sep) + 1)}` };
}

/** Replace a file in a store folder; never through a link at the folder or the file. */
export function writeStoreFile(file: string, text: string, opts: { mode?: number; durable?: boolean } = {}): void {
  const { root, rel } = storeFolderSplit(file);
  writeFileNoFollow(root, rel, text, { mode: opts.mode ?? 0o644, forceMode: true, durable: opts.durable });
}

/** Append to a file in a store folder; never through a link at the folder or the file. */
export function appendStoreFile(file: string, text: string, opts: { durable?: boolean } = {}): void {
  const { root, rel } = storeFolderSplit(file);
  appendFileNoFollow(root, rel, text, 0o644, opts);
}

/** Open a store file for reading without following a link at the file itself (ENOENT, ELOOP and others throw). */
export function openStoreFileForRead(file: string): number {
  try {
    return openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (e) {
    if (errnoCode(e) === "ELOOP") throw unsafePath(file, "a symbolic link");
    throw e;
  }
}
