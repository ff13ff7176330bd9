// Whether human output goes to a terminal, how wide it is, and whether colour
// is wanted (https://no-color.org: a non-empty NO_COLOR turns it off).
import type { Writable } from "node:stream";

export interface Terminal {
  /** Columns to fit, undefined when not a terminal (piped output is never cut). */
  width?: number;
  color: boolean;
}

export function terminalOf(out: Writable, env: Record<string, string | undefined>): Terminal {
  const tty = out as Writable & { isTTY?: boolean; columns?: number };
  if (!tty.isTTY) return { color: false };
  const columns = tty.columns || Number(env.COLUMNS) || 80;
  return { width: columns, color: !env.NO_COLOR && env.TERM !== "dumb" };
}
