// A y/N question for the destructive keys: y goes ahead, anything else says no.
// The lines above it say what would happen (close lists what would be lost).
import { Box, Text } from "ink";
import { useRef } from "react";
import { useKeys } from "../hooks/useKeys";
import { fitCell } from "../../model/columns";
import { toneProps, useColor } from "../theme";

export interface ConfirmProps {
  question: string;
  lines: string[];
  width: number;
  height: number;
  onAnswer: (yes: boolean) => void;
}

export function ConfirmDialog({ question, lines, width, height, onAnswer }: ConfirmProps) {
  const color = useColor();
  // One answer: keys read in the same burst after it (`yx`) are not a second one.
  const answered = useRef(false);
  useKeys((input) => {
    if (answered.current) return;
    answered.current = true;
    onAnswer(input === "y" || input === "Y");
  });
  const room = Math.max(0, height - 1);
  const shown = lines.length > room ? [...lines.slice(0, room - 1), `… and ${lines.length - room + 1} more`] : lines;
  return (
    <Box flexDirection="column" width={width} height={height}>
      {shown.map((l, i) => (
        <Text key={i} wrap="truncate">
          {fitCell(l, width)}
        </Text>
      ))}
      <Text wrap="truncate" bold={color} {...toneProps("yellow", color)}>
        {fitCell(`${question} [y/N]`, width)}
      </Text>
    </Box>
  );
}
