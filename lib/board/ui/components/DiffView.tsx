// `d`: the session's diff, scrollable and coloured (added green, removed red,
// hunks cyan, files bold). The patch is display text: made printable before.
import { Box, Text } from "ink";
import { useState } from "react";
import { useKeys } from "../hooks/useKeys";
import { fitCell } from "../../model/columns";
import type { BoardDiff } from "../../model/services";
import { type ToneProps, toneProps, useColor } from "../theme";

export interface DiffViewProps {
  diff: BoardDiff | null;
  error?: string;
  width: number;
  height: number;
  onClose: () => void;
}

function lineTone(line: string, color: boolean): ToneProps & { bold?: boolean } {
  if (!color) return {};
  if (line.startsWith("+++") || line.startsWith("---") || line.startsWith("diff --git")) return { bold: true };
  if (line.startsWith("+")) return toneProps("green", color);
  if (line.startsWith("-")) return toneProps("red", color);
  if (line.startsWith("@@")) return toneProps("cyan", color);
  return {};
}

export function DiffView({ diff, error, width, height, onClose }: DiffViewProps) {
  const color = useColor();
  const [top, setTop] = useState(0);
  const lines = diff ? diff.patch.replace(/\t/g, "    ").split("\n") : [];
  const room = Math.max(1, height - 2);
  const last = Math.max(0, lines.length - room);
  useKeys((input, key) => {
    if (key.escape || input === "q" || input === "d") return onClose();
    const page = Math.max(1, room - 1);
    // From the top the last key left (keys can come faster than frames).
    setTop((top) => {
      const to = key.downArrow || input === "j" ? top + 1 : key.upArrow || input === "k" ? top - 1 : key.pageDown || input === " " ? top + page : key.pageUp || input === "b" ? top - page : input === "g" || key.home ? 0 : input === "G" || key.end ? last : top;
      return Math.max(0, Math.min(last, to));
    });
  });
  const title = error ? `diff: ${error}` : diff ? diff.summary : "reading the diff…";
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text wrap="truncate" bold={color} {...(error ? toneProps("red", color) : {})}>
        {fitCell(title, width)}
      </Text>
      {lines.slice(top, top + room).map((l, i) => (
        <Text key={top + i} wrap="truncate" {...lineTone(l, color)}>
          {l === "" ? " " : l}
        </Text>
      ))}
      <Text wrap="truncate" {...toneProps("dim", color)}>
        {fitCell(`lines ${lines.length === 0 ? 0 : top + 1}-${Math.min(lines.length, top + room)} of ${lines.length} · j k Space b g G scroll · q or Esc back`, width)}
      </Text>
    </Box>
  );
}
