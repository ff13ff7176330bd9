// `m`: pick how the branch lands (merge, squash, fast-forward only, rebase),
// whether uncommitted work is committed first, then y/N. A conflict or any
// refusal comes back as the footer's error, and nothing has changed.
import { Box, Text, useInput } from "ink";
import { useState } from "react";
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
  const [at, setAt] = useState(0);
  const [uncommitted, setUncommitted] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const strategy = STRATEGIES[at]!;
  useInput((input, key) => {
    if (confirming) {
      if (input === "y" || input === "Y") onMerge(strategy, uncommitted);
      else onCancel();
      return;
    }
    if (key.escape || input === "q") return onCancel();
    if (key.return) return setConfirming(true);
    if (key.leftArrow || input === "h") setAt((at + STRATEGIES.length - 1) % STRATEGIES.length);
    else if (key.rightArrow || key.tab || input === "l") setAt((at + 1) % STRATEGIES.length);
    else if (/^[1-4]$/.test(input)) setAt(Number(input) - 1);
    else if (input === "u") setUncommitted(!uncommitted);
  });
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
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
