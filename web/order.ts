// The order of the session table, pure: children under their parent (a tree),
// siblings by creation time, or by a column the user sorts on; with triage on,
// the subtrees holding a session that needs you (asking, then error, then
// review) come first, and a parent cycle in hand-edited records still shows
// every row once.
import { COLUMNS, type Place } from "./columns";
import type { Row } from "./types";

/** The statuses that wait on a person, most urgent first. */
export const NEEDS_YOU = ["asking", "error", "review"] as const;

export function needsYou(row: Row | undefined): boolean {
  return !!row && (NEEDS_YOU as readonly string[]).includes(row.display);
}

/** 0 for asking, 1 error, 2 review; every other status after them. */
export function triageRank(row: Row): number {
  const i = (NEEDS_YOU as readonly string[]).indexOf(row.display);
  return i < 0 ? NEEDS_YOU.length : i;
}

export interface Sort {
  key: string;
  dir: 1 | -1;
}

export interface OrderOptions {
  triage: boolean;
  sort: Sort | null;
}

function byAge(a: Row, b: Row): number {
  const x = a.createdAt ?? "";
  const y = b.createdAt ?? "";
  return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : 1;
}

function compareValues(x: string | number, y: string | number): number {
  if (typeof x === "number" && typeof y === "number") return x - y;
  return String(x).localeCompare(String(y));
}

export function orderRows(shown: Row[], opts: OrderOptions): (Place & { id: string })[] {
  const ids = new Set(shown.map((r) => r.id));
  const kids = new Map<string, Row[]>();
  const roots: Row[] = [];
  for (const r of shown) {
    const p = r.kind === "ok" ? r.parent : "";
    if (p && ids.has(p) && p !== r.id) kids.set(p, [...(kids.get(p) ?? []), r]);
    else roots.push(r);
  }
  // A subtree ranks as its most urgent row (a parent comes up with its asking child).
  const rank = new Map<string, number>();
  const rankOf = (r: Row, path: Set<string>): number => {
    const known = rank.get(r.id);
    if (known !== undefined) return known;
    if (path.has(r.id)) return triageRank(r);
    path.add(r.id);
    let best = triageRank(r);
    for (const k of kids.get(r.id) ?? []) best = Math.min(best, rankOf(k, path));
    path.delete(r.id);
    rank.set(r.id, best);
    return best;
  };
  const column = opts.sort ? COLUMNS.find((c) => c.key === opts.sort!.key && c.sort) : undefined;
  const compare = (a: Row, b: Row): number => {
    if (opts.triage) {
      const d = rankOf(a, new Set()) - rankOf(b, new Set());
      if (d) return d;
    }
    if (column && opts.sort) {
      const d = compareValues(column.sort!(a), column.sort!(b));
      if (d) return d * opts.sort.dir;
    }
    return byAge(a, b);
  };
  const out: (Place & { id: string })[] = [];
  const seen = new Set<string>();
  const walk = (r: Row, depth: number) => {
    if (seen.has(r.id)) return;
    seen.add(r.id);
    const children = [...(kids.get(r.id) ?? [])].sort(compare);
    out.push({ id: r.id, depth, kids: children.length });
    for (const k of children) walk(k, depth + 1);
  };
  for (const r of [...roots].sort(compare)) walk(r, 0);
  for (const r of shown) walk(r, 0);
  return out;
}
