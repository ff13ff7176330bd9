// Typing from a terminal in the browser (the dashboard's live pane): what
// xterm.js reports as typed — printable runs, control characters, escape
// sequences of arrows and function keys — becomes tmux key names and literal
// runs, and nothing else reaches tmux. An escape sequence spex does not know
// is dropped, never passed on: a pane must not receive a sequence that makes
// its program do more than a key press would.
import { isSafeKey } from "./input";
import { tmuxWord } from "./quote";

export type KeyStep = { literal: string } | { key: string };

/** Printable text: no C0 or C1 control, no DEL. */
const PRINTABLE = /^[^\u0000-\u001f\u007f-\u009f]+$/u;

const CSI_KEYS: Record<string, string> = {
  A: "Up", B: "Down", C: "Right", D: "Left", H: "Home", F: "End", Z: "BTab",
  "1~": "Home", "2~": "IC", "3~": "DC", "4~": "End", "5~": "PPage", "6~": "NPage", "7~": "Home", "8~": "End",
  "15~": "F5", "17~": "F6", "18~": "F7", "19~": "F8", "20~": "F9", "21~": "F10", "23~": "F11", "24~": "F12",
};
const SS3_KEYS: Record<string, string> = { A: "Up", B: "Down", C: "Right", D: "Left", H: "Home", F: "End", P: "F1", Q: "F2", R: "F3", S: "F4" };
/** xterm's modifier parameter (1 + shift 1, alt 2, ctrl 4) as tmux prefixes. */
const MODIFIERS: Record<string, string> = { "2": "S-", "3": "M-", "4": "S-M-", "5": "C-", "6": "C-S-", "7": "C-M-", "8": "C-M-S-" };

function controlKey(code: number): string | undefined {
  if (code === 0x0d || code === 0x0a) return "Enter";
  if (code === 0x09) return "Tab";
  if (code === 0x7f || code === 0x08) return "BSpace";
  if (code === 0x1b) return "Escape";
  if (code === 0x00) return "C-Space";
  if (code >= 0x01 && code <= 0x1a) return `C-${String.fromCharCode(code + 0x60)}`;
  return undefined; // C-\ C-] C-^ C-_ and C1: not typed through here
}

/**
 * The escape sequence starting at `i` (an ESC): the key it names, if spex
 * knows it, and its length (0 when ESC starts no sequence).
 */
function escapeSequence(data: string, i: number): { key?: string; length: number } {
  const kind = data[i + 1];
  if (kind === "[") {
    const csi = /^\u001b\[([0-9;:<=>?]*)([\u0020-\u002f]*)([\u0040-\u007e])/.exec(data.slice(i, i + 32));
    if (!csi) return { length: 2 };
    const [whole, params = "", between = "", final = ""] = csi;
    const parts = params.split(";");
    const base = between ? undefined : final === "~" ? CSI_KEYS[`${parts[0]}~`] : CSI_KEYS[final];
    const mod = parts.length === 2 ? MODIFIERS[parts[1]!] : parts.length === 1 ? "" : undefined;
    return { key: base && mod !== undefined ? `${mod}${base}` : undefined, length: whole.length };
  }
  if (kind === "O" && i + 2 < data.length) return { key: SS3_KEYS[data[i + 2]!], length: 3 };
  if (kind !== undefined && "]P^_X".includes(kind)) {
    // A string sequence (OSC, DCS, …): up to its BEL or ESC \, all of it dropped.
    const end = data.slice(i + 2).search(/\u0007|\u001b\\/);
    return { length: end < 0 ? data.length - i : end + 2 + (data[i + 2 + end] === "\u0007" ? 1 : 2) };
  }
  return { length: 0 };
}

/** What typing `data` means, as steps tmux can send: literal runs and key names only. */
export function terminalKeys(data: string): KeyStep[] {
  const steps: KeyStep[] = [];
  let literal = "";
  const flush = () => {
    if (literal) steps.push({ literal });
    literal = "";
  };
  const key = (k: string | undefined) => {
    if (!k || !isSafeKey(k)) return;
    flush();
    steps.push({ key: k });
  };
  for (let i = 0; i < data.length; ) {
    const ch = data[i]!;
    const code = ch.charCodeAt(0);
    if (code === 0x1b && i + 1 < data.length) {
      const seq = escapeSequence(data, i);
      if (seq.length > 0) {
        key(seq.key);
        i += seq.length;
        continue;
      }
      // ESC and a plain character (Alt+x): that key with Meta; otherwise a lone Escape.
      const next = data[i + 1]!;
      if (isSafeKey(`M-${next}`)) {
        key(`M-${next}`);
        i += 2;
      } else {
        key("Escape");
        i += 1;
      }
      continue;
    }
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) {
      key(controlKey(code));
      i += 1;
      continue;
    }
    // Whole code points, so a surrogate pair stays together.
    const cp = data.codePointAt(i)!;
    literal += String.fromCodePoint(cp);
    i += cp > 0xffff ? 2 : 1;
  }
  flush();
  return steps;
}

/** A literal as one tmux argument (printable text, a trailing `;` escaped: tmuxWord). */
export function literalArg(text: string): string {
  if (!PRINTABLE.test(text)) throw new Error("a literal for send-keys must be printable text");
  return tmuxWord(text);
}

/** The tmux commands that type the steps into pane `target` (one `send-keys` each). */
export function keyCommands(target: string, steps: KeyStep[]): string[][] {
  return steps.map((s) => ("literal" in s ? ["send-keys", "-t", target, "-l", "--", literalArg(s.literal)] : ["send-keys", "-t", target, "--", s.key]));
}
