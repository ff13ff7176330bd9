// `?`: every key and what it does (the same list the footer and docs/board.md use).
import { Box, Text } from "ink";
import { useKeys } from "../hooks/useKeys";
import { fitCell } from "../../model/columns";
import { KEYS } from "../../model/keys";
import { useColor } from "../theme";

export function HelpView({ width, height, onClose }: { width: number; height: number; onClose: () => void }) {
  const color = useColor();
  useKeys(() => onClose());
  const lines = KEYS.map((k) => `${k.keys.padEnd(10)} ${k.what}${k.confirms ? " (asks y/N)" : ""}`);
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold={color} wrap="truncate">
        keys (any key closes this)
      </Text>
      {lines.slice(0, Math.max(0, height - 1)).map((l) => (
        <Text key={l} wrap="truncate">
          {fitCell(l, width)}
        </Text>
      ))}
    </Box>
  );
}
