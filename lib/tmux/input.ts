// What may be typed into a pane (DESIGN.md §13: text that reaches a pane).
// A message is one bracketed paste: any byte a terminal or a TUI's input
// parser would act on (ESC starting a sequence such as the paste end
// `ESC[201~`, a C1 control such as the 8-bit CSI, other C0 controls) would
// let the text end its own paste and submit itself, so those are shown as
// visible stand-ins instead. Keys are tmux key names and plain words, never
// anything tmux's own argument parser would read as an option, a target, a
// format or a command separator.
import { SpexError } from "../errors";

/** C0 controls (but TAB and LF), DEL, C1 controls. */
const ACTING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/gu;

function visible(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code); // ␀ … ␟ (␛ for ESC)
  if (code === 0x7f) return "\u2421"; // ␡
  return "\ufffd"; // C1 has no control picture
}

/**
 * The text as it may be pasted: line breaks are LF (CR and CRLF become LF, so
 * a lone CR cannot submit or overwrite), TAB stays, every other control is
 * made visible. Idempotent.
 */
export function pasteSafeText(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(ACTING, visible);
}

export function isPasteSafe(text: string): boolean {
  return !/[\r\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u.test(text);
}

// Names tmux's send-keys understands (matched without case, as tmux does).
const KEY_NAMES = new Set(
  [
    "Enter", "Escape", "Tab", "BTab", "BSpace", "Space", "Up", "Down", "Left", "Right", "Home", "End",
    "PageUp", "PageDown", "PgUp", "PgDn", "PPage", "NPage", "IC", "DC", "Insert", "Delete",
    ...Array.from({ length: 20 }, (_, i) => `F${i + 1}`),
  ].map((k) => k.toLowerCase()),
);

// Punctuation a dialog may want; never `-` first, `;` (a tmux command separator), `\`,
// `#` `%` `$` `@` `=` `:` (formats and targets) or braces (command blocks).
const PUNCT = "_.,!?'\"/+*()<>~&|^[]".replace(/[\]\\^[]/g, "\\$&");
const PLAIN_CHAR = new RegExp(`^[\\p{L}\\p{N}${PUNCT}]$`, "u");
// A word starts with a letter or digit; a hyphen only joins two such runs.
const WORD = new RegExp(`^[\\p{L}\\p{N}][\\p{L}\\p{N}${PUNCT}]*(?:-[\\p{L}\\p{N}][\\p{L}\\p{N}${PUNCT}]*)*$`, "u");

/** One `--keys` entry: an optional C-/M-/S- chord on a key name or one plain character, or a plain word. */
export function isSafeKey(key: string): boolean {
  if (key.length === 0 || key.length > 64) return false;
  const chord = /^((?:[CMS]-)+)(.+)$/.exec(key);
  if (chord) {
    const base = chord[2]!;
    return KEY_NAMES.has(base.toLowerCase()) || PLAIN_CHAR.test(base);
  }
  return KEY_NAMES.has(key.toLowerCase()) || PLAIN_CHAR.test(key) || WORD.test(key);
}

export const MAX_KEYS = 64;

/** Refuse keys that are not key names or plain words, before anything is queued. */
export function refuseUnsafeKeys(keys: string[]): void {
  if (keys.length > MAX_KEYS) {
    throw new SpexError("usage", `--keys takes at most ${MAX_KEYS} keys; ${keys.length} were given`, { exitCode: 2, httpStatus: 400 });
  }
  const bad = keys.filter((k) => !isSafeKey(k));
  if (bad.length > 0) {
    throw new SpexError("usage", `--keys takes tmux key names and plain words only; refused: ${bad.map((k) => JSON.stringify(k)).join(", ")}`, {
      hint: 'use names like "Enter", "Escape", "Down", "C-c" or plain words like "yes"; send text as a message instead',
      exitCode: 2,
      httpStatus: 400,
    });
  }
}
