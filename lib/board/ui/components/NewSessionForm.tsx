// `n`: a new session. The prompt (multi-line), then the launcher and group
// (← → pick) and a base to fork from (typed); Tab moves between them, Enter
// creates, Alt+Enter is a new line in the prompt, Esc cancels.
import { Box, Text } from "ink";
import { useRef, useState } from "react";
import { type Key, useKeys } from "../hooks/useKeys";
import { fitCell } from "../../model/columns";
import type { NewSessionForm as Form } from "../../model/services";
import { toneProps, useColor } from "../theme";
import { editText } from "./TextEditor";

export interface NewSessionFormProps {
  launchers: string[];
  defaultLauncher: string;
  groups: string[];
  /** The group the board is showing: a new session lands there. */
  group: string;
  width: number;
  height: number;
  onSubmit: (form: Form) => void;
  onCancel: () => void;
}

const FIELDS = ["prompt", "launcher", "group", "base"] as const;

export function NewSessionForm({ launchers, defaultLauncher, groups, group, width, height, onSubmit, onCancel }: NewSessionFormProps) {
  const color = useColor();
  const launcherChoices = launchers.length > 0 ? launchers : [defaultLauncher];
  const groupChoices = ["", ...groups];
  // The form as the last key left it (keys can come faster than frames); each change draws a frame.
  const form = useRef({ focus: 0, prompt: "", base: "", launcher: Math.max(0, launcherChoices.indexOf(defaultLauncher)), group: Math.max(0, groupChoices.indexOf(group)) });
  const [, draw] = useState(0);
  const set = (change: Partial<typeof form.current>) => {
    form.current = { ...form.current, ...change };
    draw((n) => n + 1);
  };
  const onKey = (input: string, key: Key): void => {
    // Typed faster than the board reads, text and a Tab arrive as one string: each part in turn.
    if (input.length > 1 && input.includes("\t")) {
      input.split("\t").forEach((part, i, all) => {
        if (part) onKey(part, { ...key, tab: false });
        if (i < all.length - 1) onKey("", { ...key, tab: true });
      });
      return;
    }
    const f = form.current;
    if (key.tab) return set({ focus: (f.focus + (key.shift ? FIELDS.length - 1 : 1)) % FIELDS.length });
    const field = FIELDS[f.focus]!;
    if (key.return && !(key.meta && field === "prompt")) {
      if (f.prompt.trim() === "") return set({ focus: 0 });
      return onSubmit({ prompt: f.prompt, launcher: launcherChoices[f.launcher]!, group: groupChoices[f.group]!, base: f.base.trim() });
    }
    if (key.escape) return onCancel();
    if (field === "launcher" || field === "group") {
      const step = key.leftArrow ? -1 : key.rightArrow || input === " " ? 1 : 0;
      if (field === "launcher") set({ launcher: (f.launcher + step + launcherChoices.length) % launcherChoices.length });
      else set({ group: (f.group + step + groupChoices.length) % groupChoices.length });
      return;
    }
    const edited = editText(field === "prompt" ? f.prompt : f.base, input, key);
    if (field === "prompt") set({ prompt: edited.text });
    else set({ base: edited.text.replace(/\n/g, "") });
    const now = form.current;
    if (edited.submit && now.prompt.trim() !== "") onSubmit({ prompt: now.prompt, launcher: launcherChoices[now.launcher]!, group: groupChoices[now.group]!, base: now.base.trim() });
  };
  useKeys(onKey, true, true);
  const { focus, prompt, base, launcher, group: groupAt } = form.current;
  const mark = (i: number) => (focus === i ? "› " : "  ");
  const promptLines = (prompt + (focus === 0 ? "█" : "")).split("\n");
  const room = Math.max(1, height - 5);
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text wrap="truncate" bold={color}>
        {fitCell(`${mark(0)}new session: what should the agent do?`, width)}
      </Text>
      {promptLines.slice(-room).map((l, i) => (
        <Text key={i} wrap="truncate-start">
          {"    " + (l === "" ? " " : l)}
        </Text>
      ))}
      <Text wrap="truncate">{fitCell(`${mark(1)}launcher ‹ ${launcherChoices[launcher]} ›`, width)}</Text>
      <Text wrap="truncate">{fitCell(`${mark(2)}group    ‹ ${groupChoices[groupAt] || "(none)"} ›`, width)}</Text>
      <Text wrap="truncate">{fitCell(`${mark(3)}base     ${base || (focus === 3 ? "" : "(the main branch)")}${focus === 3 ? "█" : ""}`, width)}</Text>
      <Text wrap="truncate" {...toneProps("dim", color)}>
        {fitCell("Tab next field · ← → pick · Enter create · Alt+Enter new line · Esc cancel", width)}
      </Text>
    </Box>
  );
}
