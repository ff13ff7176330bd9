// The board's rows as lines: a tree (children under their parent), cut into
// groups when any session is filed in one, in triage order (what needs a
// person first) or in `ls` order. Pure: tested without a store.
import { treeOrder } from "../../cli/session-table";
import type { ListRow } from "./services";

export type Order = "triage" | "plain";

export type BoardLine = { kind: "row"; row: ListRow; depth: number } | { kind: "group"; path: string; count: number };

/**
 * Triage rank of a display status: asking, error and proposals first, then
 * working, idle, queued, offline. A broken record is a problem to look at: first.
 */
const RANK: Record<string, number> = {
  corrupt: 0,
  unreadable: 0,
  error: 0,
  asking: 0,
  review: 1,
  done: 1,
  "close-pending": 1,
  working: 2,
  starting: 2,
  idle: 3,
  parked: 3,
  queued: 4,
  offline: 5,
  retired: 5,
};

export function triageRank(display: string): number {
  return RANK[display] ?? 3;
}

function parentOf(r: ListRow, shown: Set<string>): string {
  return r.kind === "ok" && r.parent && r.parent !== r.id && shown.has(r.parent) ? r.parent : "";
}

/** Rows sorted so treeOrder lays out each subtree by its most urgent member, siblings likewise; ties keep `ls` order. */
function triageSorted(rows: ListRow[]): ListRow[] {
  const shown = new Set(rows.map((r) => r.id));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const best = new Map<string, number>(rows.map((r) => [r.id, triageRank(r.display)]));
  // Lift each row's rank to its ancestors (bounded walk: a hand-edited parent cycle must not loop).
  for (const r of rows) {
    let rank = best.get(r.id)!;
    let at = r;
    for (let hops = 0; hops < rows.length; hops++) {
      const p = parentOf(at, shown);
      if (!p) break;
      if ((best.get(p) ?? 9) > rank) best.set(p, rank);
      else rank = best.get(p)!;
      at = byId.get(p)!;
    }
  }
  const index = new Map(rows.map((r, i) => [r.id, i]));
  return [...rows].sort((a, b) => best.get(a.id)! - best.get(b.id)! || index.get(a.id)! - index.get(b.id)!);
}

function groupOf(r: ListRow): string {
  return r.kind === "ok" ? r.group : "";
}

/** The lines the list shows: group headers (only when some session has a group) and rows with their depth. */
export function boardLines(rows: ListRow[], order: Order): BoardLine[] {
  const tree = treeOrder(order === "triage" ? triageSorted(rows) : rows);
  if (!rows.some((r) => groupOf(r) !== "")) return tree.map((t) => ({ kind: "row", ...t }));
  // A child stays under its parent, whatever group it is filed in: the root of each subtree decides.
  const blocks = new Map<string, { row: ListRow; depth: number }[]>();
  let root = "";
  for (const t of tree) {
    if (t.depth === 0) root = groupOf(t.row);
    blocks.set(root, [...(blocks.get(root) ?? []), t]);
  }
  const paths = [...blocks.keys()];
  if (order === "plain") paths.sort((a, b) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b)));
  const lines: BoardLine[] = [];
  for (const path of paths) {
    const members = blocks.get(path)!;
    lines.push({ kind: "group", path, count: members.length });
    for (const m of members) lines.push({ kind: "row", ...m });
  }
  return lines;
}
