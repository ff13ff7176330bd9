// The header's counts, `3 working · 1 asking · 2 review`: the display statuses
// `ls` prints, most urgent first, zero counts left out.
import { DISPLAY_ORDER } from "./words";
import type { ListRow } from "./services";

export function statusCounts(rows: ListRow[]): string {
  const n = new Map<string, number>();
  for (const r of rows) n.set(r.display, (n.get(r.display) ?? 0) + 1);
  const known = DISPLAY_ORDER.filter((d) => n.has(d));
  const other = [...n.keys()].filter((d) => !DISPLAY_ORDER.includes(d)).sort();
  return [...known, ...other].map((d) => `${n.get(d)} ${d}`).join(" · ");
}
