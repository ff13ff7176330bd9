// The bottom line: the keys, or what the last action said (an error in red).
import { Text } from "ink";
import { memo } from "react";
import { fitCell } from "../../model/columns";
import { footerKeys } from "../../model/keys";
import { toneProps, useColor } from "../theme";

export interface FooterMessage {
  text: string;
  tone: "info" | "error" | "busy";
}

export interface FooterProps {
  message: FooterMessage | null;
  /** Keys of a dialog instead of the board's. */
  keys?: string;
  width: number;
}

export const Footer = memo(function Footer({ message, keys, width }: FooterProps) {
  const color = useColor();
  if (message) {
    const tone = message.tone === "error" ? "red" : message.tone === "busy" ? "cyan" : "green";
    return (
      <Text wrap="truncate" {...toneProps(tone, color)}>
        {fitCell(message.text, width)}
      </Text>
    );
  }
  return (
    <Text wrap="truncate" {...toneProps("dim", color)}>
      {fitCell(keys ?? footerKeys(), width)}
    </Text>
  );
});
