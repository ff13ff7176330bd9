// A small multi-line editor (send, a new session's prompt): typing and pastes
// go in at the end, Backspace takes the last character, Enter submits,
// Alt+Enter starts a new line, Esc cancels.
import { Box, Text } from "ink";
import { useRef, useState } from "react";
import { useKeys } from "../hooks/useKeys";
import { fitCell } from "../../model/columns";
import { toneProps, useColor } from "../theme";

export interface TextEditorProps {
  title: string;
  width: number;
  height: number;
  /** Keys are taken only while active (a form moves focus between fields). */
  active?: boolean;
  hint?: string;
  onSubmit: (text: string) => void;
  onCancel: () => void;
  onChange?: (text: string) => void;
}

/** What a key does to the text: the new text, or a submit/cancel. */
export function editText(text: string, input: string, key: { return: boolean; meta: boolean; escape: boolean; backspace: boolean; delete: boolean; ctrl: boolean }): { text: string; submit?: boolean; cancel?: boolean } {
  if (key.escape) return { text, cancel: true };
  if (key.return) return key.meta ? { text: text + "\n" } : { text, submit: true };
  if (key.backspace || key.delete) return { text: [...text].slice(0, -1).join("") };
  if (key.ctrl && input === "u") return { text: text.slice(0, text.lastIndexOf("\n") + 1) };
  if (key.ctrl || input === "") return { text };
  // A line typed faster than the board reads, Enter included, arrives as one string: that Enter sends.
  if (/^[^\r\n]+\r$/.test(input)) return { text: text + input.slice(0, -1), submit: true };
  // A paste of several lines arrives whole; its line breaks stay line breaks.
  return { text: text + input.replace(/\r\n?/g, "\n") };
}

export function TextEditor({ title, width, height, active = true, hint, onSubmit, onCancel, onChange }: TextEditorProps) {
  const color = useColor();
  const [text, setText] = useState("");
  // Keys can come faster than frames (a paste, fast typing): each edits the text the last one left, not the last frame's.
  const current = useRef("");
  useKeys(
    (input, key) => {
      const next = editText(current.current, input, key);
      if (next.cancel) return onCancel();
      if (next.submit) return onSubmit(next.text);
      if (next.text !== current.current) {
        current.current = next.text;
        setText(next.text);
        onChange?.(next.text);
      }
    },
    active,
    true,
  );
  const lines = (text + (active ? "█" : "")).split("\n");
  const room = Math.max(1, height - 2);
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text wrap="truncate" bold={color}>
        {fitCell(title, width)}
      </Text>
      {lines.slice(-room).map((l, i) => (
        <Text key={i} wrap="truncate-start">
          {l === "" ? " " : l}
        </Text>
      ))}
      <Text wrap="truncate" {...toneProps("dim", color)}>
        {fitCell(hint ?? "Enter sends · Alt+Enter new line · Esc cancels", width)}
      </Text>
    </Box>
  );
}
