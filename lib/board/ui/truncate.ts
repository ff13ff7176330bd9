// Ink cuts a line that is too wide with cli-truncate, which keeps a wide
// character (CJK, emoji) that straddles the cut: the line comes out one cell
// wider than the box, the terminal wraps it onto a line of its own, and the
// frame, one line taller than the screen, scrolls the board's header away
// (an agent's screen in the preview, a diff, a name). scripts/build-board.ts
// puts this in the place of cli-truncate for Ink's wrap-text.js: the same cut,
// asked again with less room until it fits.
import cliTruncate, { type Options } from "cli-truncate";
import stringWidth from "string-width";

function widest(text: string): number {
  let w = 0;
  for (const line of text.split("\n")) w = Math.max(w, stringWidth(line));
  return w;
}

export default function truncateToCells(text: string, columns: number, options?: Options): string {
  let cut = cliTruncate(text, columns, options);
  for (let room = columns - 1; room > 0 && widest(cut) > columns; room--) cut = cliTruncate(text, room, options);
  return cut;
}
