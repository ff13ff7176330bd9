// The project's endpoint record: where its one backend listens, who it is
// (pid + start + boot, so a reused pid never passes for it), and beside it
// the instance token and the port the project's backend takes. The token and
// the port outlive a backend (issue 24 item 3): a restarted `serve` answers at
// the same address with the same token, so open dashboard tabs get back in.
// Every file is the user's own, mode 0600, written through lib/nofollow; a
// reader trusts none through a symlink, nor when another user owns it or may
// write it (another local user is in the threat model, DESIGN.md §13).
import { chmodSync, closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { SpexError, errnoCode } from "../errors";
import { writeStoreFile } from "../nofollow";
import { ownerAlive } from "../proc";
import { type ProjectStore, listProjectKeys, spexHome } from "../store";
import { shellWord } from "../tmux/quote";

export interface EndpointRecord {
  instanceId: string;
  url: string;
  host: string;
  port: number;
  root: string;
  pid: number;
  start: string;
  boot: string;
  startedAt: string;
  version: string;
}

export interface BackendPaths {
  dir: string;
  endpoint: string;
  token: string;
  /** The port the project's backend takes when `serve` is given none. */
  port: string;
  lock: string;
}

export function backendPaths(store: Pick<ProjectStore, "dir" | "locksDir">): BackendPaths {
  const dir = join(store.dir, "backend");
  return { dir, endpoint: join(dir, "endpoint.json"), token: join(dir, "token"), port: join(dir, "port"), lock: join(store.locksDir, "backend.lock") };
}

function unsafe(file: string, why: string): SpexError {
  return new SpexError("backend_file_unsafe", `${file} ${why}; spex does not trust it`, {
    hint: `if you did not make it so, find out who did; then remove it (rm ${shellWord(file)}) and start \`spex serve\` again`,
    details: { file },
  });
}

/**
 * A backend file's text, or undefined when it is absent. Opened without
 * following a symlink, then checked on the open descriptor: a regular file,
 * owned by this user, with none of the `forbidden` mode bits.
 */
function readOwnFile(file: string, forbidden: number): string | undefined {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO planted here must not hang the reader.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = errnoCode(e);
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    if (code === "ELOOP") throw unsafe(file, "is a symbolic link");
    throw e;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw unsafe(file, "is not a regular file");
    const uid = process.getuid?.();
    if (uid !== undefined && st.uid !== uid) throw unsafe(file, `belongs to uid ${st.uid}, not to you (uid ${uid})`);
    if (st.mode & forbidden) throw unsafe(file, `is open to other users (mode ${(st.mode & 0o777).toString(8).padStart(4, "0")})`);
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

/** The record holds no secret (older versions wrote it 0644): others may not write it. */
const ENDPOINT_FORBIDDEN = 0o022;
/** The token: nobody but the user. */
const TOKEN_FORBIDDEN = 0o077;

function isEndpoint(v: unknown): v is EndpointRecord {
  const e = v as EndpointRecord;
  return !!e && typeof e.url === "string" && typeof e.pid === "number" && typeof e.port === "number" && typeof e.instanceId === "string";
}

/** The recorded endpoint, or undefined when none is recorded (an unreadable record counts as none). */
export function readEndpoint(store: Pick<ProjectStore, "dir" | "locksDir">): EndpointRecord | undefined {
  const text = readOwnFile(backendPaths(store).endpoint, ENDPOINT_FORBIDDEN);
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return isEndpoint(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

export function readToken(store: Pick<ProjectStore, "dir" | "locksDir">): string | undefined {
  return readOwnFile(backendPaths(store).token, TOKEN_FORBIDDEN)?.trim() || undefined;
}

/** A token this version made (64 hex digits): anything else found in the file is not reused. */
export const TOKEN_SHAPE = /^[0-9a-f]{64}$/;

/** The port recorded for the project's backend, or undefined. */
export function readPort(store: Pick<ProjectStore, "dir" | "locksDir">): number | undefined {
  const n = Number(readOwnFile(backendPaths(store).port, ENDPOINT_FORBIDDEN)?.trim() ?? "");
  return Number.isInteger(n) && n > 0 && n <= 65535 ? n : undefined;
}

/** The recorded backend still runs: same pid, same start time, same boot. */
export function endpointAlive(e: EndpointRecord): boolean {
  return ownerAlive({ pid: e.pid, start: e.start, boot: e.boot });
}

function writePrivate(file: string, text: string): void {
  // A fresh temp file beside it, renamed over it: never written through a link at the folder or the file.
  writeStoreFile(file, text, { mode: 0o600, durable: true });
}

/** The backend folder: a real folder of ours, closed to others. */
function ownFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory()) throw unsafe(dir, "is not a folder");
  if (uid !== undefined && st.uid !== uid) throw unsafe(dir, `belongs to uid ${st.uid}, not to you (uid ${uid})`);
  chmodSync(dir, 0o700);
}

export function newToken(): string {
  return randomBytes(32).toString("hex");
}

export function writeEndpoint(store: ProjectStore, endpoint: EndpointRecord, token: string): void {
  const p = backendPaths(store);
  ownFolder(p.dir);
  // Token first: a CLI that finds the endpoint must also find its token.
  writePrivate(p.token, token + "\n");
  writePrivate(p.port, `${endpoint.port}\n`);
  writePrivate(p.endpoint, JSON.stringify(endpoint, null, 2) + "\n");
}

/**
 * Remove the endpoint record, but only while it is still ours. The token and
 * the port stay for the next `serve` of the project.
 */
export function removeEndpoint(store: ProjectStore, instanceId: string): void {
  const current = readEndpoint(store);
  if (current && current.instanceId !== instanceId) return;
  try {
    unlinkSync(backendPaths(store).endpoint);
  } catch (e) {
    if (errnoCode(e) !== "ENOENT") throw e;
  }
}

/**
 * The token for a backend at `url`: SPEX_API_TOKEN wins, else the token of
 * whichever project under SPEX_HOME records that address (an explicit --api
 * may name another project's backend).
 */
export function tokenFor(url: string, preferred?: ProjectStore, home = spexHome()): string | undefined {
  if (process.env.SPEX_API_TOKEN) return process.env.SPEX_API_TOKEN;
  const want = sameOrigin(url);
  const candidates: Pick<ProjectStore, "dir" | "locksDir">[] = preferred ? [preferred] : [];
  for (const key of listProjectKeys(home)) {
    const dir = join(home, "projects", key);
    candidates.push({ dir, locksDir: join(dir, "locks") });
  }
  for (const store of candidates) {
    let e: EndpointRecord | undefined;
    try {
      e = readEndpoint(store);
    } catch (err) {
      // Another project's untrustworthy record is skipped; this project's own refuses.
      if (store === preferred || !(err instanceof SpexError)) throw err;
      continue;
    }
    if (e && sameOrigin(e.url) === want) return readToken(store);
  }
  return undefined;
}

function sameOrigin(url: string): string {
  try {
    const u = new URL(url);
    const host = u.hostname === "localhost" || u.hostname === "[::1]" ? "127.0.0.1" : u.hostname;
    return `${host}:${u.port || "80"}`;
  } catch {
    return url;
  }
}
