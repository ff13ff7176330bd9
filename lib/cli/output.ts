// Output helpers shared by every command: JSON, one table formatter, and the
// error line of DESIGN.md §4.
import type { Writable } from "node:stream";
import { SpexError } from "../errors";

export function writeJson(out: Writable, value: unknown): void {
  out.write(JSON.stringify(value, null, 2) + "\n");
}

/** Make display text safe for a terminal: control characters become visible escapes. */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f\u009b]/gu, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

function width(s: string): number {
  let w = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    // East Asian wide and emoji take two cells; close enough for a table.
    w += cp >= 0x1100 && (cp <= 0x115f || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6) || cp >= 0x1f300) ? 2 : 1;
  }
  return w;
}

/** A plain text table: a header row, then one line per row, columns padded. */
export function formatTable(headers: string[], rows: string[][]): string {
  const cells = [headers, ...rows.map((r) => r.map((c) => printable(c).replace(/\n/g, " ")))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => width(r[i] ?? ""))));
  return (
    cells
      .map((r) =>
        r
          .map((c, i) => (i === r.length - 1 ? c : c + " ".repeat(widths[i]! - width(c))))
          .join("  ")
          .trimEnd(),
      )
      .join("\n") + "\n"
  );
}

/** Turn anything thrown into the project's error type. */
export function asSpexError(error: unknown): SpexError {
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

/** One line on stderr; with --json also the error object on stdout. Returns the exit code. */
export function reportError(error: unknown, io: { stdout: Writable; stderr: Writable }, json: boolean): number {
  const err = asSpexError(error);
  const hint = err.hint ? `; ${err.hint}` : "";
  // One line whatever the message carries (a name or a parse error may hold newlines).
  const line = printable(`${err.message}${hint}`).replace(/\n/g, "\\n");
  io.stderr.write(`spex: ${line} [${err.code}]\n`);
  if (json) writeJson(io.stdout, err.toJSON());
  if (process.env.SPEX_DEBUG && error instanceof Error && error.stack) io.stderr.write(error.stack + "\n");
  return err.exitCode;
}
