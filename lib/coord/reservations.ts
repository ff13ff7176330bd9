// File reservations of a project (DESIGN.md §9), stored at
// `<project>/coord/reservations.json` under their own lock. Expired leases and
// leases of sessions whose record is gone are dropped on every read.
import { withLock } from "../lock";
import type { ProjectStore } from "../store";
import { isPerson, sessionLabeler } from "./actor";
import { coordPaths, presentSessions, readCoordFile, writeCoordFile } from "./files";
import { type LeaseList, type LeaseMode, type StoredLease, formatExpiresIn, liveLeases, parseLeaseList, releaseLeases, reserveLeases } from "./lease-rules";

export interface LeaseView {
  pattern: string;
  mode: LeaseMode;
  session_id: string;
  holder: string;
  note: string;
  expires_in: string;
  expiresAt: string;
  mine: boolean;
}

export interface ReserveResult {
  reserved: LeaseView[];
  conflicts: LeaseView[];
}

function readLive(store: ProjectStore, now: number): LeaseList {
  const file = coordPaths(store).reservations;
  const present = presentSessions(store);
  return liveLeases(parseLeaseList(readCoordFile(file), file), now, (s) => isPerson(s) || present.has(s));
}

function viewOf(label: (id: string) => string, lease: StoredLease, me: string | undefined, now: number): LeaseView {
  return {
    pattern: lease.pattern,
    mode: lease.mode,
    session_id: lease.session_id,
    holder: label(lease.session_id),
    note: lease.note,
    expires_in: formatExpiresIn(lease.expiresAt - now),
    expiresAt: new Date(lease.expiresAt).toISOString(),
    mine: me !== undefined && lease.session_id === me,
  };
}

async function change<T extends { list: LeaseList }>(store: ProjectStore, purpose: string, apply: (list: LeaseList, now: number) => T): Promise<{ result: T; now: number }> {
  const paths = coordPaths(store);
  return withLock(
    paths.reservationsLock,
    () => {
      const now = Date.now();
      const result = apply(readLive(store, now), now);
      writeCoordFile(paths.reservations, result.list);
      return { result, now };
    },
    { purpose },
  );
}

export function listReservations(store: ProjectStore, me?: string): LeaseView[] {
  const now = Date.now();
  const label = sessionLabeler(store);
  return readLive(store, now).leases.map((l) => viewOf(label, l, me, now));
}

export async function reserve(store: ProjectStore, me: string, req: { patterns: string[]; mode: LeaseMode; ttlMs: number; note: string }): Promise<ReserveResult> {
  const { result, now } = await change(store, "reserve", (list, at) => reserveLeases(list, { session: me, ...req }, at));
  const label = sessionLabeler(store);
  return { reserved: result.reserved.map((l) => viewOf(label, l, me, now)), conflicts: result.conflicts.map((l) => viewOf(label, l, me, now)) };
}

export async function releaseReservations(store: ProjectStore, me: string, patterns?: string[]): Promise<LeaseView[]> {
  const { result, now } = await change(store, "reserve release", (list) => releaseLeases(list, me, patterns));
  const label = sessionLabeler(store);
  return result.released.map((l) => viewOf(label, l, me, now));
}
