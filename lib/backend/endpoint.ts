// The project's endpoint record: where its one backend listens, who it is
// (pid + start + boot, so a reused pid never passes for it), and beside it
// the instance token, readable only by the user (0600).
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { errnoCode } from "../errors";
import { ownerAlive } from "../proc";
import { type ProjectStore, listProjectKeys, spexHome } from "../store";

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
  lock: string;
}

export function backendPaths(store: Pick<ProjectStore, "dir" | "locksDir">): BackendPaths {
  const dir = join(store.dir, "backend");
  return { dir, endpoint: join(dir, "endpoint.json"), token: join(dir, "token"), lock: join(store.locksDir, "backend.lock") };
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    const code = errnoCode(e);
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw e;
  }
}

function isEndpoint(v: unknown): v is EndpointRecord {
  const e = v as EndpointRecord;
  return !!e && typeof e.url === "string" && typeof e.pid === "number" && typeof e.port === "number" && typeof e.instanceId === "string";
}

/** The recorded endpoint, or undefined when none is recorded (an unreadable record counts as none). */
export function readEndpoint(store: Pick<ProjectStore, "dir" | "locksDir">): EndpointRecord | undefined {
  const text = readText(backendPaths(store).endpoint);
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return isEndpoint(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

export function readToken(store: Pick<ProjectStore, "dir" | "locksDir">): string | undefined {
  return readText(backendPaths(store).token)?.trim() || undefined;
}

/** The recorded backend still runs: same pid, same start time, same boot. */
export function endpointAlive(e: EndpointRecord): boolean {
  return ownerAlive({ pid: e.pid, start: e.start, boot: e.boot });
}

function writePrivate(file: string, text: string, mode: number): void {
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, "w", mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  chmodSync(tmp, mode); // the umask may have narrowed or widened what open() asked for
  renameSync(tmp, file);
}

export function newToken(): string {
  return randomBytes(32).toString("hex");
}

export function writeEndpoint(store: ProjectStore, endpoint: EndpointRecord, token: string): void {
  const p = backendPaths(store);
  mkdirSync(p.dir, { recursive: true, mode: 0o700 });
  // Token first: a CLI that finds the endpoint must also find its token.
  writePrivate(p.token, token + "\n", 0o600);
  writePrivate(p.endpoint, JSON.stringify(endpoint, null, 2) + "\n", 0o644);
}

/** Remove the endpoint record and token, but only while they are still ours. */
export function removeEndpoint(store: ProjectStore, instanceId: string): void {
  const current = readEndpoint(store);
  if (current && current.instanceId !== instanceId) return;
  const p = backendPaths(store);
  for (const f of [p.endpoint, p.token]) {
    try {
      unlinkSync(f);
    } catch (e) {
      if (errnoCode(e) !== "ENOENT") throw e;
    }
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
    const e = readEndpoint(store);
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
