// One session as one line: its cells laid out by the column table, the status
// in the colour `ls` gives it, the selected row marked (and inverted with colour).
// The line is one string with its colour sequences in it: one text node a row
// keeps Ink's per-frame work (it styles the frame cell by cell) small at 200 sessions.
import { Text } from "ink";
import { memo } from "react";
import type { StatusTone } from "../../../cli/session-table";
import { type Column, fitCell } from "../../model/columns";
import type { ListRow } from "../../model/services";
import { useColor } from "../theme";

export interface SessionRowProps {
  row: ListRow;
  depth: number;
  selected: boolean;
  columns: Column[];
  widths: number[];
  now: number;
}

const SGR: Record<StatusTone, [string, string]> = {
  green: ["\u001b[32m", "\u001b[39m"],
  cyan: ["\u001b[36m", "\u001b[39m"],
  yellow: ["\u001b[33m", "\u001b[39m"],
  red: ["\u001b[31m", "\u001b[39m"],
  magenta: ["\u001b[35m", "\u001b[39m"],
  dim: ["\u001b[2m", "\u001b[22m"],
  plain: ["", ""],
};

/** The row's line: cells are display text made printable (fitCell), so the only sequences in it are these. */
export function rowLine(p: SessionRowProps, color: boolean): string {
  const cells = p.columns.map((c, i) => {
    const text = (i > 0 ? " " : "") + fitCell(c.cell(p.row, { now: p.now, depth: p.depth }), p.widths[i]!);
    if (!color || p.selected || !c.tone) return text;
    const [on, off] = SGR[c.tone(p.row)];
    return on + text + off;
  });
  const line = (p.selected ? "› " : "  ") + cells.join("");
  if (!color) return line;
  if (p.selected) return `\u001b[7m${line}\u001b[27m`;
  return p.row.kind === "ok" && p.row.archived ? `\u001b[2m${line}\u001b[22m` : line;
}

/** Drawn again only when one of its props changes (a move of the selection redraws two rows, not the list). */
export const SessionRow = memo(function SessionRow(props: SessionRowProps) {
  const color = useColor();
  return <Text wrap="truncate">{rowLine(props, color)}</Text>;
});
