// Typing into a terminal and reading its screen. Text goes through the same
// path as a message to an agent (lib/tmux: made paste-safe, one bracketed
// paste, never into a dead pane) and keys through the same key-name check.
import { SpexError } from "../errors";
import { shortId } from "../naming";
import { refuseTooLarge } from "../comms/queue";
import { pasteSafeText, pasteText, refuseUnsafeKeys, sendKeys, sessionPane, sessionPaneTarget } from "../tmux";
import { type ScreenOptions, readPaneScreen } from "../tmux/screen";
import { type TerminalReading, type TerminalRecord, notARecordFile } from "./record";
import { randomHex } from "../hash";

export interface TerminalInput {
  text: string;
  keys: string[];
  /** Press Enter after the text (default true); keys are sent as they are. */
  enter?: boolean;
}

export interface TerminalInputResult {
  id: string;
  name: string;
  sent: "text" | "keys";
  /** Bytes pasted (text), or the keys sent. */
  bytes: number;
  keys: string[];
  enter: boolean;
}

export interface TerminalScreen {
  id: string;
  name: string;
  /** The program has exited; the screen is the one it left. */
  exited: boolean;
  styled: boolean;
  history: number;
  screen: string;
}

function usable(reading: Exclude<TerminalReading, { kind: "absent" }>): TerminalRecord {
  if (reading.kind === "corrupt") {
    throw new SpexError("terminal_corrupt", `the terminal record ${reading.file} cannot be read (${reading.error}); nothing was sent or read`, {
      // A folder there is no record spex wrote, and close leaves it alone: the same advice close gives.
      hint: notARecordFile(reading.file, reading.id)?.hint ?? `\`spex terminal close ${shortId(reading.id, 8)}\` removes it`,
      details: { file: reading.file },
    });
  }
  return reading.record;
}

function gone(t: TerminalRecord): SpexError {
  return new SpexError("terminal_gone", `the tmux session ${t.tmux_session} of terminal ${t.name} no longer exists`, {
    hint: `\`spex terminal close ${shortId(t.terminal_id, 8)}\` removes its record; \`spex terminal new\` opens another`,
    httpStatus: 410,
  });
}

function refuseShape(input: TerminalInput): void {
  if ((input.text === "") === (input.keys.length === 0)) {
    throw new SpexError("usage", input.text === "" ? "nothing to send: give text or --keys" : "give text or --keys, not both", { exitCode: 2, httpStatus: 400 });
  }
  refuseTooLarge(input.text);
  refuseUnsafeKeys(input.keys);
}

export function sendToTerminal(reading: Exclude<TerminalReading, { kind: "absent" }>, input: TerminalInput): TerminalInputResult {
  refuseShape(input);
  const t = usable(reading);
  const pane = sessionPane(t.tmux_socket, t.tmux_session);
  if (!pane) throw gone(t);
  const exited = () =>
    new SpexError("terminal_exited", `the program of terminal ${t.name} has exited; nothing was typed`, {
      hint: `read its last screen with \`spex terminal read ${shortId(t.terminal_id, 8)}\`, then close it`,
    });
  // Checked here, and again inside tmux at the paste (a paste into a dead pane crashes tmux 3.3a).
  if (pane.dead) throw exited();
  const base = { id: t.terminal_id, name: t.name };
  if (input.keys.length > 0) {
    const r = sendKeys(t.tmux_socket, pane.id, input.keys);
    if (r.code !== 0) throw new SpexError("tmux_failed", `tmux refused the keys: ${r.stderr.trim()}`, { hint: "check the terminal with `spex terminal ls`" });
    return { ...base, sent: "keys", bytes: 0, keys: input.keys, enter: false };
  }
  const text = pasteSafeText(input.text);
  const pasted = pasteText(t.tmux_socket, pane.id, text, `spex-term-${shortId(t.terminal_id, 8)}-${randomHex(4)}`);
  if (pasted.paneDead) throw exited();
  if (pasted.code !== 0) throw new SpexError("tmux_failed", `tmux could not paste into terminal ${t.name}: ${pasted.stderr.trim()}; nothing was typed`, { hint: "check the terminal with `spex terminal ls`" });
  const enter = input.enter !== false;
  if (enter) {
    const r = sendKeys(t.tmux_socket, pane.id, ["Enter"]);
    if (r.code !== 0) throw new SpexError("tmux_failed", `the text was pasted, but Enter failed: ${r.stderr.trim()}`, { hint: "press Enter yourself, or send --keys Enter" });
  }
  return { ...base, sent: "text", bytes: Buffer.byteLength(text), keys: [], enter };
}

const SGR = /\u001b\[[0-9;:]*m/g;

/**
 * The screen an exited program left, with tmux's "Pane is dead" line right
 * under its last output: tmux writes that line on the bottom row, so the rows
 * between (blank, up to a screenful) say nothing and are dropped.
 */
export function closeUpDeadLine(screen: string): string {
  const rows = screen.split("\n");
  const last = rows.length - 1;
  if (last < 1 || !/^Pane is dead\b/.test(rows[last]!.replace(SGR, ""))) return screen;
  let end = last;
  while (end > 0 && rows[end - 1]!.replace(SGR, "").trim() === "") end--;
  return [...rows.slice(0, end), rows[last]!].join("\n");
}

export function readTerminalScreen(reading: Exclude<TerminalReading, { kind: "absent" }>, opts: ScreenOptions = {}): TerminalScreen {
  const t = usable(reading);
  const pane = readPaneScreen(t.tmux_socket, sessionPaneTarget(t.tmux_session), opts);
  if (!pane) throw gone(t);
  return { id: t.terminal_id, name: t.name, exited: pane.dead, styled: opts.styled ?? false, history: opts.history ?? 0, screen: pane.dead ? closeUpDeadLine(pane.screen) : pane.screen };
}
