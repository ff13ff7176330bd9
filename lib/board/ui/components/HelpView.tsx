// `?`: every key and what it does (the same list the footer and docs/board.md use).
// On a window too short for the list (a small tmux popup) it comes in pages:
// Space shows the next one, any other key closes it.
import { Box, Text } from "ink";
import { useState } from "react";
import { useKeys } from "../hooks/useKeys";
import { fitCell } from "../../model/columns";
import { KEYS } from "../../model/keys";
import { useColor } from "../theme";

export function HelpView({ width, height, onClose }: { width: number; height: number; onClose: () => void }) {
  const color = useColor();
  const lines = KEYS.map((k) => `${k.keys.padEnd(10)} ${k.what}${k.confirms ? " (asks y/N)" : ""}`);
  const room = Math.max(1, height - 1);
  const pages = Math.ceil(lines.length / room);
  const [page, setPage] = useState(0);
  useKeys((input) => {
    if (pages > 1 && input === " " && page < pages - 1) return setPage(page + 1);
    onClose();
  });
  const title =
    pages > 1 ? `keys ${page * room + 1}–${Math.min(lines.length, (page + 1) * room)} of ${lines.length} (${page < pages - 1 ? "Space: more, any other key closes" : "any key closes this"})` : "keys (any key closes this)";
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold={color} wrap="truncate">
        {fitCell(title, width)}
      </Text>
      {lines.slice(page * room, (page + 1) * room).map((l) => (
        <Text key={l} wrap="truncate">
          {fitCell(l, width)}
        </Text>
      ))}
    </Box>
  );
}
