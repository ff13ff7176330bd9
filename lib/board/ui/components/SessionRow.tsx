// One session as one line: its cells laid out by the column table, the status
// in the colour `ls` gives it, the selected row marked (and inverted with colour).
import { Text } from "ink";
import { type Column, fitCell } from "../../model/columns";
import type { ListRow } from "../../model/services";
import { toneProps, useColor } from "../theme";

export interface SessionRowProps {
  row: ListRow;
  depth: number;
  selected: boolean;
  columns: Column[];
  widths: number[];
  now: number;
}

export function SessionRow({ row, depth, selected, columns, widths, now }: SessionRowProps) {
  const color = useColor();
  const archived = row.kind === "ok" && row.archived;
  return (
    <Text wrap="truncate" inverse={color && selected} dimColor={color && archived && !selected}>
      {selected ? "› " : "  "}
      {columns.map((c, i) => (
        <Text key={c.key} {...(c.tone && !selected ? toneProps(c.tone(row), color) : {})}>
          {(i > 0 ? " " : "") + fitCell(c.cell(row, { now, depth }), widths[i]!)}
        </Text>
      ))}
    </Text>
  );
}
