// `m`: pick how the branch lands (merge, squash, fast-forward only, rebase),
// whether uncommitted work is committed first, then y/N. A conflict or any
// refusal comes back as the footer's error, and nothing has changed.
import { Box, Text } from "ink";
import { useCurrent, useKeys } from "../hooks/useKeys";
import { fitCell } from "../../model/columns";
import type { MergeChoice } from "../../model/services";
import { toneProps, useColor } from "../theme";

export const STRATEGIES: MergeChoice[] = ["merge", "squash", "ff-only", "rebase"];

export interface MergeDialogProps {
  label: string;
  branch: string;
  width: number;
  height: number;
  onMerge: (strategy: MergeChoice, includeUncommitted: boolean) => void;
  onCancel: () => void;
}

export function MergeDialog({ label, branch, width, height, onMerge, onCancel }: MergeDialogProps) {
  const color = useColor();
  const choice = useCurrent({ at: 0, uncommitted: false, confirming: false });
  const { at, uncommitted, confirming } = choice.value;
  const strategy = STRATEGIES[at]!;
  useKeys((input, key) => {
    const c = choice.get();
    if (c.confirming) {
      if (input === "y" || input === "Y") onMerge(STRATEGIES[c.at]!, c.uncommitted);
      else onCancel();
      return;
    }
    if (key.escape || input === "q") return onCancel();
    const n = STRATEGIES.length;
    if (key.return) choice.set({ ...c, confirming: true });
    else if (key.leftArrow || input === "h") choice.set({ ...c, at: (c.at + n - 1) % n });
    else if (key.rightArrow || key.tab || input === "l") choice.set({ ...c, at: (c.at + 1) % n });
    else if (/^[1-4]$/.test(input)) choice.set({ ...c, at: Number(input) - 1 });
    else if (input === "u") choice.set({ ...c, uncommitted: !c.uncommitted });
  });
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text wrap="truncate" bold={color}>
        {fitCell(`merge ${label} (${branch}) onto the main branch`, width)}
      </Text>
      <Text wrap="truncate">
        {"strategy: "}
        {STRATEGIES.map((s, i) => (
          <Text key={s} inverse={color && i === at}>
            {i === at && !color ? `[${i + 1} ${s}]` : ` ${i + 1} ${s} `}
          </Text>
        ))}
      </Text>
      <Text wrap="truncate">{fitCell(`[${uncommitted ? "x" : " "}] u: commit the worktree's uncommitted files first`, width)}</Text>
      {confirming ? (
        <Text wrap="truncate" bold={color} {...toneProps("yellow", color)}>
          {fitCell(`merge ${branch} by ${strategy}${uncommitted ? ", uncommitted files included" : ""}? [y/N]`, width)}
        </Text>
      ) : (
        <Text wrap="truncate" {...toneProps("dim", color)}>
          {fitCell("← → or 1-4 pick · u toggle · Enter confirm · Esc cancel", width)}
        </Text>
      )}
    </Box>
  );
}
