// The `/` text filter and the `g` group filter. A parent whose child matches
// stays shown (greyed by nothing: the tree must keep its shape), so a matching
// child is never listed as a root.
import type { ListRow } from "./services";

function haystack(r: ListRow): string {
  if (r.kind === "corrupt") return `${r.id} ${r.display} ${r.error}`.toLowerCase();
  return [r.id, r.label, r.branch, r.display, r.note, r.preview, r.group, r.harness, r.launcher].join(" ").toLowerCase();
}

/** Rows whose words contain every word of the filter (any case), plus their ancestors; group "" keeps every group. */
export function filterRows(rows: ListRow[], text: string, group: string | null): ListRow[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  const inGroup = (r: ListRow) => group === null || (r.kind === "ok" ? r.group === group || r.group.startsWith(`${group}/`) : group === "");
  const hits = rows.filter((r) => inGroup(r) && words.every((w) => haystack(r).includes(w)));
  if (hits.length === rows.length) return rows;
  const byId = new Map(rows.map((r) => [r.id, r]));
  const keep = new Set(hits.map((r) => r.id));
  for (const r of hits) {
    let at: ListRow | undefined = r;
    for (let hops = 0; at && hops < rows.length; hops++) {
      const p: string = at.kind === "ok" ? at.parent : "";
      if (!p || keep.has(p)) break;
      keep.add(p);
      at = byId.get(p);
    }
  }
  return rows.filter((r) => keep.has(r.id));
}
