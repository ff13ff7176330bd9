// Output helpers shared by every command: JSON, one table formatter, and the
// error line of DESIGN.md §4.
import type { Writable } from "node:stream";
import { SpexError } from "../errors";
import { notOwnedRefusal } from "../git/ownership";

export function writeJson(out: Writable, value: unknown): void {
  // Two writes: joining a listing's text with its newline copies all of it once more.
  out.write(JSON.stringify(value, null, 2));
  out.write("\n");
}

/** A control character as the visible escape `\x1b`. */
const escaped = (c: string) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`;

/** Make display text safe for a terminal: control characters become visible escapes. */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f\u009b]/gu, escaped);
}

/** Text on one line of output: printable, with line breaks and tabs shown as `\x0a`, `\x09` too. */
export function printableLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f\u009b]/gu, escaped);
}

/**
 * A styled screen for a terminal: its colour and attribute sequences (SGR,
 * `ESC [ … m`) pass, every other control is made visible, so pane text cannot
 * move the cursor, retitle the window or write the clipboard of whoever reads it.
 */
export function printableStyled(text: string): string {
  return text
    .split(/(\u001b\[[0-9;:]*m)/u)
    .map((part, i) => (i % 2 === 1 ? part : printable(part)))
    .join("");
}

/** A captured screen without the blanks a terminal pads it with: trailing spaces of each line, and blank lines at the end. */
export function trimScreen(screen: string): string {
  return screen.replace(/[ \t]+$/gm, "").replace(/\n+$/, "");
}

// Marks that sit on the character before them (a combining accent), joiners
// and variation selectors take no cell; emoji drawn as pictures (✅ ⚡ ❌ ⭐,
// most of them below the emoji block) take two, as wcwidth, tmux and the
// terminals count them.
const NO_CELL = /[\p{Mn}\p{Me}\u200b-\u200f\u2060\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/u;
const PICTURE = /\p{Emoji_Presentation}/u;

function charCells(ch: string, cp: number): number {
  if (cp < 0x300) return 1;
  if (NO_CELL.test(ch)) return 0;
  // East Asian wide and emoji take two cells.
  return cp >= 0x1100 && (cp <= 0x115f || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6) || cp >= 0x1f300 || PICTURE.test(ch)) ? 2 : 1;
}

/** Terminal cells a string takes. */
export function cellWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += charCells(ch, ch.codePointAt(0)!);
  return w;
}

/** At most `cells` terminal cells of `s`, ending in `…` when cut. */
export function truncateCells(s: string, cells: number): string {
  if (cellWidth(s) <= cells) return s;
  if (cells <= 0) return "";
  let out = "";
  let used = 0;
  for (const ch of s) {
    const w = cellWidth(ch);
    if (used + w > cells - 1) break;
    out += ch;
    used += w;
  }
  return `${out}…`;
}

export interface TableOptions {
  /** Fit every line into this many cells by cutting the `shrink` columns, in the order given, down to their minimum. */
  width?: number;
  shrink?: { column: number; min: number }[];
  /** Decorate a laid-out cell (colour); padding is computed on the plain text. Row -1 is the header. */
  paint?: (row: number, column: number, text: string) => string;
  /** A line under a row, indented to the second column and never cut (a corrupt row's file). */
  notes?: (string | undefined)[];
}

/** Column widths that fit `width`, shrinking the listed columns in turn. */
function fitWidths(widths: number[], opts: TableOptions): number[] {
  const out = [...widths];
  if (opts.width === undefined) return out;
  // Two cells between shown columns; a column cut to 0 is dropped with its gap.
  const total = () => out.reduce((a, b) => a + b, 0) + 2 * (out.filter((w) => w > 0).length - 1);
  for (const { column, min } of opts.shrink ?? []) {
    const over = total() - opts.width;
    if (over <= 0) break;
    // Cut down to `min` at most, never widened to it: a column narrower than `min` keeps its width.
    out[column] = Math.min(out[column]!, Math.max(min, out[column]! - over));
    if (min === 0 && out[column]! < 3) out[column] = 0; // a sliver of a column says nothing: drop it
  }
  return out;
}

/** A plain text table: a header row, then one line per row, columns padded. */
export function formatTable(headers: string[], rows: string[][], opts: TableOptions = {}): string {
  const cells = [headers, ...rows.map((r) => r.map((c) => printable(c).replace(/\n/g, " ")))];
  const widths = fitWidths(
    headers.map((_, i) => Math.max(...cells.map((r) => cellWidth(r[i] ?? "")))),
    opts,
  );
  const shown = headers.map((_, i) => widths[i]! > 0);
  const lines: string[] = [];
  cells.forEach((r, ri) => {
    const last = r.length - 1;
    const line = r
      .map((c, i) => {
        if (!shown[i]) return undefined;
        const text = truncateCells(c, widths[i]!);
        const painted = opts.paint ? opts.paint(ri - 1, i, text) : text;
        return i === last ? painted : painted + " ".repeat(widths[i]! - cellWidth(text));
      })
      .filter((c) => c !== undefined)
      .join("  ")
      .trimEnd();
    lines.push(line);
    const note = ri > 0 ? opts.notes?.[ri - 1] : undefined;
    if (note !== undefined) lines.push(`${" ".repeat(widths[0]! + 2)}${printable(note).replace(/\n/g, " ")}`);
  });
  return lines.join("\n") + "\n";
}

/** Turn anything thrown into the project's error type. */
export function asSpexError(error: unknown): SpexError {
  // A git step that failed only because git refuses a repository another user owns says so, whoever ran it.
  if (!(error instanceof SpexError) || error.code === "git_failed") {
    const refusal = notOwnedRefusal(String((error as Error)?.message ?? error));
    if (refusal) return refusal;
  }
  if (error instanceof SpexError) return error;
  const e = error as NodeJS.ErrnoException;
  if (e && typeof e === "object" && typeof e.code === "string" && e.code.startsWith("E")) {
    return new SpexError("io_error", `${e.message}`, {
      hint: "check the permissions and free space of SPEX_HOME and the repository",
      details: { errno: e.code },
    });
  }
  return new SpexError("internal_error", e?.message ?? String(error), {
    hint: "this is a bug in spex; please report it with the command you ran",
  });
}

/** Text as one line: each line break (and the blanks around it) becomes one space, never a `\\n`. */
export function oneLine(text: string): string {
  return text.replace(/[ \t]*(?:\r\n|\r|\n|\u2028|\u2029)+[ \t]*/g, " ").trim();
}

/** `message; hint [code]` on one line, whatever the message carries (a name, a tool's stderr or a parse error may hold newlines). */
function errorLine(err: SpexError): { message: string; hint: string; line: string } {
  const message = oneLine(err.message);
  const hint = oneLine(err.hint);
  return { message, hint, line: `${printable(hint ? `${message}; ${hint}` : message)} [${err.code}]` };
}

/** A problem that did not stop the command: one line on stderr, in the error format. */
export function reportWarning(err: SpexError, stderr: Writable): void {
  stderr.write(`spex: warning: ${errorLine(err).line}\n`);
}

export interface DescribedError {
  error: SpexError;
  /** `spex: <message>; <hint> [<code>]`, the one line the CLI prints on stderr. */
  line: string;
  /** The object `--json` prints: `{"error": {code, message, hint, …details}}`. */
  json: { error: Record<string, unknown> };
}

/** Anything thrown, as every front reports it (the CLI's stderr line and --json object, MCP tool errors). */
export function describeError(error: unknown): DescribedError {
  const err = asSpexError(error);
  const { message, hint, line } = errorLine(err);
  return { error: err, line: `spex: ${line}`, json: { error: { ...err.toJSON().error, message, hint } } };
}

/** One line on stderr; with --json also the error object on stdout. Returns the exit code. */
export function reportError(error: unknown, io: { stdout: Writable; stderr: Writable }, json: boolean): number {
  const { error: err, line, json: object } = describeError(error);
  io.stderr.write(`${line}\n`);
  if (json) writeJson(io.stdout, object);
  if (process.env.SPEX_DEBUG && error instanceof Error && error.stack) io.stderr.write(error.stack + "\n");
  return err.exitCode;
}
