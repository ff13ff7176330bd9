// The list's columns, as data: a new row field (usage, ports, an offline
// reason, a machine) is one entry here. A column with `shown` appears only
// when some row has something to put in it, as `ls` does with GROUP.
import { STATUS_TONE, ageOf, statusWord, type StatusTone } from "../../cli/session-table";
import { cellWidth, printable, truncateCells } from "../../cli/output";
import { costWord } from "../../attention/usage/summary";
import type { ListRow } from "./services";

export interface CellContext {
  now: number;
  /** Depth in the tree (0: a root). */
  depth: number;
}

export interface Column {
  key: string;
  header: string;
  /**
   * Fixed cells (or as wide as the widest of these rows' cells), or a share of what the fixed columns leave (`grow`), never under `min`.
   * A column as wide as its widest cell that has a `min` too gives cells back, down to `min`, on a terminal too narrow for it and
   * the growing columns at their `min`: a long status (`offline · tmux_server_gone`) is cut before the label goes.
   */
  width?: number | ((rows: ListRow[]) => number);
  grow?: number;
  min?: number;
  cell(row: ListRow, ctx: CellContext): string;
  tone?(row: ListRow): StatusTone;
  /** Shown only when this says so for the rows on the board. */
  shown?(rows: ListRow[]): boolean;
}

const ok = <T>(r: ListRow, f: (r: Extract<ListRow, { kind: "ok" }>) => T, none: T): T => (r.kind === "ok" ? f(r) : none);

export const COLUMNS: Column[] = [
  { key: "id", header: "ID", width: 8, cell: (r) => r.shortId },
  // Up to 28 cells: `offline · machine_restarted` whole.
  { key: "status", header: "STATUS", width: (rows) => Math.min(28, Math.max(7, ...rows.map((r) => statusWord(r).length))), min: 8, cell: (r) => statusWord(r), tone: (r) => STATUS_TONE[r.display] ?? "plain" },
  // `--all-machines`: where the session lives (this machine's name on its own rows too).
  { key: "machine", header: "MACHINE", width: (rows) => Math.min(16, Math.max(7, ...rows.map((r) => cellWidth(r.machine ?? "")))), cell: (r) => r.machine ?? "", shown: (rows) => rows.some((r) => r.machine !== undefined) },
  {
    key: "label",
    header: "LABEL",
    grow: 2,
    min: 10,
    cell: (r, c) => (c.depth > 0 ? `${"  ".repeat(c.depth - 1)}└ ` : "") + (r.kind === "ok" ? r.label : `(${r.display} record)`),
  },
  { key: "note", header: "NOTE", grow: 3, min: 0, cell: (r) => (r.kind === "ok" ? r.note || r.preview : r.error) },
  // ls's AGE: since the session was made.
  { key: "age", header: "AGE", width: 4, cell: (r, c) => ok(r, (s) => ageOf(s.createdAt, c.now), "") },
  // ls's COST: what the agent's transcript says it spent, once any session on the board has usage.
  // The port block a running session holds (docs/workspace.md), once any session on the board has one.
  { key: "ports", header: "PORTS", width: 11, cell: (r) => ok(r, (s) => s.ports ?? "", ""), shown: (rows) => rows.some((r) => r.kind === "ok" && !!r.ports) },
  { key: "cost", header: "COST", width: 7, cell: (r) => ok(r, (s) => costWord(s.usage), ""), shown: (rows) => rows.some((r) => r.kind === "ok" && r.usage) },
];

/** The columns on show for these rows. */
export function shownColumns(rows: ListRow[], columns: Column[] = COLUMNS): Column[] {
  return columns.filter((c) => !c.shown || c.shown(rows));
}

/** Each column's width at this many cells (one space between columns); a column with no room gets 0. */
export function columnWidths(columns: Column[], total: number, rows: ListRow[] = []): number[] {
  const gaps = Math.max(0, columns.length - 1);
  const fixedOf = (c: Column) => (typeof c.width === "function" ? c.width(rows) : c.width);
  const fixed = columns.reduce((n, c) => n + (fixedOf(c) ?? c.min ?? 0), 0);
  const spare = Math.max(0, total - gaps - fixed);
  const growth = columns.reduce((n, c) => n + (c.grow ?? 0), 0);
  const widths = columns.map((c) => {
    const w = fixedOf(c);
    if (w !== undefined) return w;
    const extra = growth > 0 ? Math.floor((spare * (c.grow ?? 0)) / growth) : 0;
    return (c.min ?? 0) + extra;
  });
  // What rounding left goes to the first growing column; a terminal too narrow shrinks the growing ones first.
  const used = widths.reduce((a, b) => a + b, 0) + gaps;
  const first = columns.findIndex((c) => c.grow);
  if (used < total && first >= 0) widths[first]! += total - used;
  let over = used - total;
  const shrink = (i: number, floor: number) => {
    const cut = Math.max(0, Math.min(over, widths[i]! - floor));
    widths[i]! -= cut;
    over -= cut;
  };
  // Too narrow: the growing columns down to their min, then the ones as wide as their cells down to theirs, then the growing ones to nothing.
  for (let i = columns.length - 1; i >= 0 && over > 0; i--) if (columns[i]!.grow) shrink(i, columns[i]!.min ?? 0);
  for (let i = columns.length - 1; i >= 0 && over > 0; i--) if (typeof columns[i]!.width === "function" && columns[i]!.min !== undefined) shrink(i, columns[i]!.min!);
  for (let i = columns.length - 1; i >= 0 && over > 0; i--) if (columns[i]!.grow) shrink(i, 0);
  return widths;
}

/** A cell's text: display text only (DESIGN.md §1.10), one line, padded or cut to its width in cells. */
export function fitCell(text: string, width: number): string {
  if (width <= 0) return "";
  const cut = truncateCells(printable(text.replace(/[\r\n\t]+/g, " ")), width);
  return cut + " ".repeat(Math.max(0, width - cellWidth(cut)));
}
