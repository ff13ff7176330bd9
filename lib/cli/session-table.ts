// The human `ls` table: children indented under their parent, a GROUP column
// when any shown session is filed in a group, archived rows marked, a corrupt
// row's file on a line of its own. On a terminal it is fitted to the width
// (the prompt preview is cut first, the id never) and coloured by status.
import type { ListRow } from "../sessions";
import { formatTable } from "./output";

export interface SessionTableOptions {
  /** Terminal width to fit, or undefined when not writing to a terminal. */
  width?: number;
  color: boolean;
}

const SGR = (code: string) => (text: string) => `\u001b[${code}m${text}\u001b[0m`;
const green = SGR("32");
const yellow = SGR("33");
const red = SGR("31");
const magenta = SGR("35");
const cyan = SGR("36");
const dim = SGR("2");
const bold = SGR("1");

/** A status's colour, by name: the board (Ink) and this table paint from the same map. */
export type StatusTone = "green" | "cyan" | "yellow" | "red" | "magenta" | "dim" | "plain";

/** One colour per status family: busy, needs a person, finished, not running. */
export const STATUS_TONE: Record<string, StatusTone> = {
  working: "green",
  starting: "cyan",
  queued: "cyan",
  idle: "plain",
  asking: "yellow",
  parked: "yellow",
  error: "red",
  corrupt: "red",
  unreadable: "red",
  review: "magenta",
  done: "magenta",
  "close-pending": "magenta",
  offline: "dim",
  retired: "dim",
};

const TONE_SGR: Record<StatusTone, (t: string) => string> = { green, cyan, yellow, red, magenta, dim, plain: (t) => t };
const STATUS_COLOR = (status: string) => TONE_SGR[STATUS_TONE[status] ?? "plain"];

/** The status as a row shows it: `queued #N` in the launch queue, `(archived)` when filed away. */
export function statusWord(r: ListRow): string {
  if (r.kind === "corrupt") return r.display;
  const shown = r.queuePosition !== null ? `queued #${r.queuePosition}` : r.display;
  return r.archived ? `${shown} (archived)` : shown;
}

/** Rows in tree order: each parent followed by its children (depth first), siblings in listing order. */
export function treeOrder(rows: ListRow[]): { row: ListRow; depth: number }[] {
  const shown = new Set(rows.map((r) => r.id));
  const parentOf = (r: ListRow) => (r.kind === "ok" && r.parent && r.parent !== r.id && shown.has(r.parent) ? r.parent : "");
  const children = new Map<string, ListRow[]>();
  for (const r of rows) {
    const p = parentOf(r);
    if (p) children.set(p, [...(children.get(p) ?? []), r]);
  }
  const out: { row: ListRow; depth: number }[] = [];
  const seen = new Set<string>();
  const visit = (r: ListRow, depth: number) => {
    if (seen.has(r.id)) return; // a parent cycle in hand-edited records must not loop
    seen.add(r.id);
    out.push({ row: r, depth });
    for (const c of children.get(r.id) ?? []) visit(c, depth + 1);
  };
  for (const r of rows) if (!parentOf(r)) visit(r, 0);
  for (const r of rows) visit(r, 0); // members of a cycle, which have no root
  return out;
}

export function renderSessionTable(rows: ListRow[], opts: SessionTableOptions): string {
  const ordered = treeOrder(rows);
  const grouped = rows.some((r) => r.kind === "ok" && r.group !== "");
  const headers = ["ID", "STATUS", ...(grouped ? ["GROUP"] : []), "LABEL", "BRANCH", "PROMPT"];
  const label = headers.indexOf("LABEL");
  const cells = ordered.map(({ row: r, depth }) => {
    const indent = depth > 0 ? `${"  ".repeat(depth - 1)}└ ` : "";
    if (r.kind === "corrupt") return [r.shortId, r.display, ...(grouped ? [""] : []), `${indent}(${r.display} record)`, "", r.error];
    return [r.shortId, statusWord(r), ...(grouped ? [r.group] : []), `${indent}${r.label}`, r.branch, r.preview];
  });
  const notes = ordered.map(({ row: r }) => (r.kind === "corrupt" ? `file: ${r.file}` : undefined));
  const paint = opts.color
    ? (row: number, column: number, text: string) => {
        if (row < 0) return bold(text);
        const r = ordered[row]!.row;
        if (column === 1) return STATUS_COLOR(r.display)(text);
        return r.kind === "ok" && r.archived ? dim(text) : text;
      }
    : undefined;
  // Cut the prompt preview first, then the label and branch a little, then the prompt again; never the id or status.
  const prompt = headers.length - 1;
  const branch = headers.length - 2;
  const shrink = [
    { column: prompt, min: 24 },
    { column: label, min: 32 },
    { column: branch, min: 24 },
    { column: prompt, min: 12 },
    { column: label, min: 20 },
    { column: branch, min: 16 },
    ...(grouped ? [{ column: 2, min: 8 }] : []),
    { column: prompt, min: 0 },
    { column: label, min: 12 },
    { column: branch, min: 12 },
    // A very narrow terminal: drop the branch and the group rather than wrap.
    { column: branch, min: 0 },
    ...(grouped ? [{ column: 2, min: 0 }] : []),
    { column: label, min: 8 },
  ];
  return formatTable(headers, cells, { width: opts.width, shrink, paint, notes });
}
