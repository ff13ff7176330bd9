// What the pane must show before a message is typed, and how a paste is seen
// to have arrived. Pane text is untrusted display data: it is only matched
// against, never executed (DESIGN.md §1.10).
//
// At rest on screen = the harness's composer landmark is visible and no
// dialog or working landmark is. The landmarks are lib/live's per-harness
// rule sets (one source of truth with `spex session live`); a `shell` session
// (any command) has no screen contract, so its record alone decides.
import { classifyPane, ruleSetFor } from "../live";

export interface ScreenVerdict {
  atRest: boolean;
  reason: string;
}

export function screenAtRest(harness: string, screen: string): ScreenVerdict {
  if (harness === "shell" || harness === "") return { atRest: true, reason: "a shell session has no screen contract" };
  const c = classifyPane({ paneDead: false, command: "", screen, ruleSet: ruleSetFor(harness) });
  return { atRest: c.status === "idle", reason: c.reason };
}

// Borders and wrapping differ per TUI: compare text with whitespace and box drawing removed.
function squash(s: string): string {
  return s.replace(/[\s\u2500-\u257f]+/gu, "");
}

/** The tail of the text's last line that a TUI shows verbatim (no control bytes). */
export function echoProbe(text: string): string {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  const last = lines[lines.length - 1] ?? "";
  const printable = /[^\u0000-\u001f\u007f]+$/u.exec(last)?.[0] ?? "";
  return [...squash(printable)].slice(-24).join("");
}

function occurrences(hay: string, needle: string): number {
  if (!needle) return 0;
  let n = 0;
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + needle.length)) n++;
  return n;
}

// Claude Code folds long or multi-line pastes into a placeholder line.
const PASTE_PLACEHOLDER = /\[Pasted text #\d+/g;

/** The paste shows on screen now and did not before (more occurrences than the pre-paste capture). */
export function pasteEchoed(before: string, after: string, text: string): boolean {
  const placeholders = (s: string) => s.match(PASTE_PLACEHOLDER)?.length ?? 0;
  if (placeholders(after) > placeholders(before)) return true;
  const probe = echoProbe(text);
  if (!probe) return after !== before;
  return occurrences(squash(after), probe) > occurrences(squash(before), probe);
}

/**
 * Where a composer sits: the newest non-blank lines of the screen (the input
 * line or box, with a footer or two below it). Text a delivery pasted and did
 * not submit stays there; text that was submitted scrolls up with the turn.
 */
const COMPOSER_TAIL_LINES = 12;

function composerTail(screen: string): string {
  const lines = screen.split("\n").filter((l) => l.trim() !== "");
  return lines.slice(-COMPOSER_TAIL_LINES).join("\n");
}

/** What a pasted text looks like in the composer area: its echo probe, and how often it (or a paste placeholder) shows there. */
export interface ComposerEcho {
  probe: string;
  count: number;
  placeholders: number;
}

export function composerEcho(screen: string, text: string): ComposerEcho {
  const tail = composerTail(screen);
  const probe = echoProbe(text);
  return { probe, count: occurrences(squash(tail), probe), placeholders: tail.match(PASTE_PLACEHOLDER)?.length ?? 0 };
}

/**
 * Proven that the composer no longer holds the text a dead delivery pasted:
 * the composer area shows its probe (and paste placeholders) no more often
 * than it did before that paste. Without a probe nothing is proven.
 */
export function composerCleared(screen: string, before: ComposerEcho): boolean {
  if (!before.probe) return false;
  const now = composerEcho(screen, "");
  const tail = squash(composerTail(screen));
  return occurrences(tail, before.probe) <= before.count && now.placeholders <= before.placeholders;
}
