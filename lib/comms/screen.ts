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
