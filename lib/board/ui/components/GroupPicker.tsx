// `g`: show one group only (its subgroups with it), or every group again.
import { Box, Text } from "ink";
import { useCurrent, useKeys } from "../hooks/useKeys";
import { fitCell } from "../../model/columns";
import { useColor } from "../theme";

export interface GroupPickerProps {
  groups: string[];
  current: string | null;
  width: number;
  height: number;
  onPick: (group: string | null) => void;
  onCancel: () => void;
}

export function GroupPicker({ groups, current, width, height, onPick, onCancel }: GroupPickerProps) {
  const color = useColor();
  // null: every group; "": sessions filed in none.
  const choices: (string | null)[] = [null, "", ...groups];
  const marked = useCurrent(() => Math.max(0, choices.indexOf(current)));
  const at = marked.value;
  useKeys((input, key) => {
    if (key.escape || input === "q") return onCancel();
    if (key.return) return onPick(choices[marked.get()]!);
    if (key.downArrow || input === "j") marked.set((a) => Math.min(choices.length - 1, a + 1));
    if (key.upArrow || input === "k") marked.set((a) => Math.max(0, a - 1));
  });
  const room = Math.max(1, height - 1);
  const start = Math.max(0, Math.min(at - Math.floor(room / 2), choices.length - room));
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text wrap="truncate" bold={color}>
        {fitCell("show which group? (Enter picks, Esc cancels)", width)}
      </Text>
      {choices.slice(start, start + room).map((g, i) => (
        <Text key={String(g)} wrap="truncate" inverse={color && start + i === at}>
          {fitCell(`${start + i === at ? "› " : "  "}${g === null ? "(every group)" : g === "" ? "(no group)" : g}`, width)}
        </Text>
      ))}
    </Box>
  );
}
