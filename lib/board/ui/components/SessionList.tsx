// The list: a header line, then the lines of the tree (group headers and
// rows) that fit, scrolled so the selection is always in view.
import { Box, Text } from "ink";
import { memo, useMemo } from "react";
import { type Column, columnWidths, fitCell } from "../../model/columns";
import type { BoardLine } from "../../model/order";
import { useColor } from "../theme";
import { SessionRow } from "./SessionRow";

export interface SessionListProps {
  lines: BoardLine[];
  selectedId: string | null;
  columns: Column[];
  width: number;
  /** Lines available, the column header included. */
  height: number;
  now: number;
  /** Said when there is nothing to list. */
  empty: string;
}

/** The first line to show so the selection sits in view: a pure function of where it is, never of the last frame. */
export function windowStart(selected: number, total: number, rows: number): number {
  if (total <= rows || selected < 0) return 0;
  return Math.max(0, Math.min(selected - Math.floor(rows / 2), total - rows));
}

/**
 * Drawn again on every move of the selection, but a row is drawn again only
 * when its own props change (memo): a move redraws the two rows it touches.
 */
export const SessionList = memo(function SessionList({ lines, selectedId, columns, width, height, now, empty }: SessionListProps) {
  const color = useColor();
  // The same array while the rows and the width stay: the rows' memo compares it by identity.
  const widths = useMemo(
    () =>
      columnWidths(
        columns,
        Math.max(0, width - 2),
        lines.flatMap((l) => (l.kind === "row" ? [l.row] : [])),
      ),
    [columns, width, lines],
  );
  const rows = Math.max(0, height - 1);
  const selected = lines.findIndex((l) => l.kind === "row" && l.row.id === selectedId);
  const start = windowStart(selected, lines.length, rows);
  const shown = lines.slice(start, start + rows);
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text wrap="truncate" bold={color}>
        {"  " + columns.map((c, i) => fitCell(c.header, widths[i]!)).join(" ")}
      </Text>
      {lines.length === 0 ? <Text wrap="truncate">{"  " + empty}</Text> : null}
      {shown.map((l) =>
        l.kind === "group" ? (
          <Text key={`group:${l.path}`} wrap="truncate" bold={color}>
            {fitCell(`▸ ${l.path === "" ? "(no group)" : l.path} (${l.count})`, width)}
          </Text>
        ) : (
          <SessionRow key={l.row.id} row={l.row} depth={l.depth} selected={l.row.id === selectedId} columns={columns} widths={widths} now={now} />
        ),
      )}
    </Box>
  );
});
