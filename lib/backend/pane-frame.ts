// One frame of a live pane for the browser's terminal: the screen as tmux
// captures it with colours (`capture-pane -e`), reduced to printable text and
// SGR colour sequences. Pane text is display data (DESIGN.md §1.10): nothing
// that could make the browser's terminal answer (a device query) or act
// (a title, a mode switch, a hyperlink) survives.

export interface PaneFrame {
  cols: number;
  rows: number;
  cursor: { x: number; y: number; visible: boolean };
  /** `rows` lines, joined by "\n", SGR sequences the only escapes. */
  text: string;
  /** Lines of scrollback the pane holds above the screen (GET …/pane/history reads them). */
  history: number;
}

/** The display-message format read with each capture. */
export const PANE_FORMAT = "#{pane_width} #{pane_height} #{cursor_x} #{cursor_y} #{cursor_flag} #{pane_dead} #{history_size}";

const SGR = /^\u001b\[[0-9;:]*m/;
const OTHER_CSI = /^\u001b\[[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?/;
const STRING_SEQ = /^\u001b[\]P^_X][^\u0007\u001b]*(?:\u0007|\u001b\\)?/;

/** Printable text and SGR sequences only. */
export function displayOnly(line: string): string {
  let out = "";
  for (let i = 0; i < line.length; ) {
    const c = line.charCodeAt(i);
    if (c === 0x1b) {
      const rest = line.slice(i, i + 256);
      const sgr = SGR.exec(rest);
      if (sgr) {
        out += sgr[0];
        i += sgr[0].length;
        continue;
      }
      const skip = STRING_SEQ.exec(rest) ?? OTHER_CSI.exec(rest);
      i += skip && skip[0].length > 1 ? skip[0].length : 2;
      continue;
    }
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
      i += 1;
      continue;
    }
    out += line[i];
    i += 1;
  }
  return out;
}

/**
 * The frame from one tmux answer: the PANE_FORMAT line, then the capture.
 * Undefined when the answer is not that (the pane went away mid-call).
 */
export function parsePaneAnswer(stdout: string): (PaneFrame & { dead: boolean }) | undefined {
  const nl = stdout.indexOf("\n");
  if (nl < 0) return undefined;
  const facts = stdout.slice(0, nl).split(" ").map(Number);
  if (facts.length !== 7 || facts.some((n) => !Number.isInteger(n) || n < 0)) return undefined;
  const [cols, rows, x, y, flag, dead, history] = facts as [number, number, number, number, number, number, number];
  const lines = stdout.slice(nl + 1).replace(/\n$/, "").split("\n").slice(0, rows);
  while (lines.length < rows) lines.push("");
  return { cols, rows, cursor: { x, y, visible: flag === 1 }, text: lines.map(displayOnly).join("\n"), history, dead: dead === 1 };
}

/** At most this many lines of scrollback go to the browser at once. */
export const MAX_HISTORY_LINES = 10000;

/** The tmux call that reads a pane's scrollback with its colours: its size in lines, then the lines. */
export function historyArgs(paneId: string): string[] {
  return ["display-message", "-p", "-t", paneId, "#{history_size}", ";", "capture-pane", "-p", "-e", "-t", paneId, "-S", String(-MAX_HISTORY_LINES), "-E", "-1"];
}

/** The scrollback lines from that call's answer (display text only); undefined when the pane went away. */
export function parseHistoryAnswer(stdout: string): { history: number; lines: string[] } | undefined {
  const nl = stdout.indexOf("\n");
  const history = Number(stdout.slice(0, nl < 0 ? undefined : nl));
  if (nl < 0 || !Number.isInteger(history) || history < 0) return undefined;
  // With no scrollback tmux answers with the screen's first row: nothing to keep.
  const lines = history === 0 ? [] : stdout.slice(nl + 1).replace(/\n$/, "").split("\n").slice(-Math.min(history, MAX_HISTORY_LINES));
  return { history, lines: lines.map(displayOnly) };
}
