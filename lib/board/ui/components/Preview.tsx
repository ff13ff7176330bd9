// The selected session's screen, live: the bottom of it that fits (where an
// agent's prompt and question are), each line cut at the width, under a title
// saying where it comes from.
import { Box, Text } from "ink";
import { memo } from "react";
import { fitCell } from "../../model/columns";
import type { BoardPreview, ListRow } from "../../model/services";
import { toneProps, useColor } from "../theme";

export interface PreviewProps {
  row: ListRow | null;
  preview: BoardPreview | null;
  width: number;
  height: number;
}

const SOURCE: Record<BoardPreview["source"], string> = { pane: "live", "last-screen": "last screen saved", none: "no screen" };

/** The last `rows` lines of a screen, tabs as spaces (a cut line must not run past the width). */
export function tailLines(text: string, rows: number): string[] {
  if (rows <= 0 || text === "") return [];
  return text.replace(/\t/g, "    ").split("\n").slice(-rows);
}

export const PreviewPane = memo(function PreviewPane({ row, preview, width, height }: PreviewProps) {
  const color = useColor();
  const title = row ? `${row.shortId} ${row.kind === "ok" ? row.label : row.display}${preview ? ` · ${preview.live ? SOURCE[preview.source] : preview.source === "pane" ? "exited" : SOURCE[preview.source]}` : ""}` : "";
  const bar = `── ${title} `;
  const body = preview ? tailLines(preview.text, height - 1) : [];
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text wrap="truncate" {...toneProps("dim", color)}>
        {fitCell(bar + "─".repeat(Math.max(0, width - bar.length)), width)}
      </Text>
      {row && !preview ? <Text wrap="truncate">…</Text> : null}
      {body.map((line, i) => (
        <Text key={i} wrap="truncate-end">
          {line === "" ? " " : line}
        </Text>
      ))}
    </Box>
  );
});
