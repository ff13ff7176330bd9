// File reservations as pure values (DESIGN.md §9): advisory leases on paths
// or globs with a time to live. Overlaps are reported to both sides, never
// refused: the point is that two agents find out in time to talk.
import { SpexError } from "../errors";
import { COORD_LIMITS, refuseTooLong, refuseTooMany } from "./limits";

export const DEFAULT_LEASE_TTL_MS = 30 * 60 * 1000;
export const MAX_LEASE_TTL_MS = 4 * 60 * 60 * 1000;

export const LEASE_MODES = ["exclusive", "shared"] as const;
export type LeaseMode = (typeof LEASE_MODES)[number];

export interface StoredLease {
  pattern: string;
  mode: LeaseMode;
  session_id: string;
  note: string;
  createdAt: string;
  /** Milliseconds since the epoch; a lease at or past it is gone. */
  expiresAt: number;
}

export interface LeaseList {
  version: 1;
  leases: StoredLease[];
}

const WILDCARD = /[*?[{]/;

/** A repo-relative pattern: `./` and trailing `/` dropped; absolute paths and `..` refused. */
export function normalPattern(raw: string): string {
  refuseTooLong("a pattern", raw, COORD_LIMITS.pattern);
  let p = raw.trim().replace(/\/{2,}/g, "/");
  while (p.startsWith("./")) p = p.slice(2);
  if (p.length > 1) p = p.replace(/\/+$/, "");
  if (!p || p === "." || p.startsWith("/") || p.split("/").includes("..")) {
    throw new SpexError("pattern_invalid", `"${raw}" is not a path or glob inside the repository`, {
      hint: "give paths relative to the repository root, such as src/auth or 'src/**/*.ts'",
      details: { pattern: raw },
      exitCode: 2,
    });
  }
  return p;
}

/** The literal text before the first wildcard (the whole pattern when it has none). */
export function literalStem(pattern: string): string {
  const i = pattern.search(WILDCARD);
  return i < 0 ? pattern : pattern.slice(0, i);
}

/**
 * Whether two patterns may name a common path. A plain path covers itself and
 * everything under it. Otherwise compare the literal stems (text before the
 * first wildcard): they overlap when one stem starts with the other; when the
 * shorter one is a plain path the longer must continue it at a `/`. This is
 * deliberately conservative: `src/*.ts` and `src/*.md` overlap (both stem
 * `src/`), which costs a spurious report, never a missed one.
 */
export function patternsOverlap(a: string, b: string): boolean {
  const [short, long] = literalStem(a).length <= literalStem(b).length ? [a, b] : [b, a];
  const s = literalStem(short);
  const l = literalStem(long);
  if (!l.startsWith(s)) return false;
  const shortIsPath = !WILDCARD.test(short);
  if (!shortIsPath) return true;
  // A plain path and something under it (or the same path, or a glob starting exactly there).
  return l.length === s.length || l[s.length] === "/";
}

/** `45m`, `2h`, `1h30m`, `90s`; a bare number is minutes. */
export function parseTtl(text: string): number {
  const t = text.trim();
  const bare = /^\d+$/.test(t) ? `${t}m` : t;
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(bare);
  const ms = m ? (Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0)) * 1000 : NaN;
  if (!m || bare === "" || !(ms > 0)) {
    throw new SpexError("usage", `"${text}" is not a duration`, { hint: "use a form like 45m, 2h, 1h30m or 90s", exitCode: 2 });
  }
  if (ms > MAX_LEASE_TTL_MS) {
    throw new SpexError("ttl_too_long", `a lease lasts at most 4h, not ${text}`, {
      hint: "reserve for 4h or less and reserve again to renew",
      details: { ttl_ms: ms, max_ttl_ms: MAX_LEASE_TTL_MS },
      httpStatus: 400,
    });
  }
  return ms;
}

/** `29m`, `3h59m`, `40s`: the time left, rounded up to the unit shown. */
export function formatExpiresIn(ms: number): string {
  if (ms <= 0) return "0s";
  if (ms < 60_000) return `${Math.ceil(ms / 1000)}s`;
  const minutes = Math.ceil(ms / 60_000);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h > 0 ? (m > 0 ? `${h}h${m}m` : `${h}h`) : `${m}m`;
}

/** Leases still in force: not expired, and held by a session whose record still exists. */
export function liveLeases(list: LeaseList, now: number, present: (session: string) => boolean): LeaseList {
  return { ...list, leases: list.leases.filter((l) => l.expiresAt > now && present(l.session_id)) };
}

export interface ReserveRequest {
  session: string;
  patterns: string[];
  mode: LeaseMode;
  ttlMs: number;
  note: string;
}

function conflicts(a: { pattern: string; mode: LeaseMode }, b: { pattern: string; mode: LeaseMode }): boolean {
  return (a.mode === "exclusive" || b.mode === "exclusive") && patternsOverlap(a.pattern, b.pattern);
}

/**
 * Take (or renew) a lease per pattern. Another session's overlapping lease,
 * where either side is exclusive, comes back in `conflicts`; the lease is
 * granted all the same, because reservations advise and never block.
 */
export function reserveLeases(list: LeaseList, req: ReserveRequest, now: number): { list: LeaseList; reserved: StoredLease[]; conflicts: StoredLease[] } {
  refuseTooMany("patterns", req.patterns, COORD_LIMITS.patterns);
  refuseTooLong("the note", req.note, COORD_LIMITS.leaseNote);
  const patterns = [...new Set(req.patterns.map(normalPattern))];
  if (patterns.length === 0) throw new SpexError("usage", "reserve needs at least one path or glob", { exitCode: 2, hint: "spex reserve src/auth 'docs/*.md'" });
  const createdAt = new Date(now).toISOString();
  const reserved: StoredLease[] = patterns.map((pattern) => ({ pattern, mode: req.mode, session_id: req.session, note: req.note, createdAt, expiresAt: now + req.ttlMs }));
  const others = list.leases.filter((l) => l.session_id !== req.session);
  const found = others.filter((l) => reserved.some((r) => conflicts(r, l)));
  // Renewing a pattern replaces this session's earlier lease on it.
  const kept = list.leases.filter((l) => !(l.session_id === req.session && patterns.includes(l.pattern)));
  return { list: { ...list, leases: [...kept, ...reserved] }, reserved, conflicts: found };
}

/** Drop this session's leases on the given patterns, or all of them when none are given. */
export function releaseLeases(list: LeaseList, session: string, patterns: string[] | undefined): { list: LeaseList; released: StoredLease[] } {
  if (patterns) refuseTooMany("patterns", patterns, COORD_LIMITS.patterns);
  const wanted = patterns && patterns.length > 0 ? new Set(patterns.map(normalPattern)) : undefined;
  const hit = (l: StoredLease) => l.session_id === session && (!wanted || wanted.has(l.pattern));
  return { list: { ...list, leases: list.leases.filter((l) => !hit(l)) }, released: list.leases.filter(hit) };
}

export function parseLeaseList(raw: unknown, file: string): LeaseList {
  if (raw === undefined) return { version: 1, leases: [] };
  const o = raw as Partial<LeaseList>;
  const ok =
    o &&
    typeof o === "object" &&
    Array.isArray(o.leases) &&
    o.leases.every((l) => l && typeof l.pattern === "string" && typeof l.session_id === "string" && typeof l.expiresAt === "number" && (LEASE_MODES as readonly string[]).includes(l.mode));
  if (!ok) {
    throw new SpexError("coord_corrupt", `${file} is not a reservation list`, { hint: "inspect the file; move it aside to drop every lease", details: { file } });
  }
  return { version: 1, leases: o.leases!.map((l) => ({ ...l, note: typeof l.note === "string" ? l.note : "", createdAt: typeof l.createdAt === "string" ? l.createdAt : "" })) };
}
