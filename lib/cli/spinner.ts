// A one-line spinner on stderr for a wait a person would otherwise sit through
// in silence (an agent slow to start): what it waits for, how long so far, and
// for how long at most. Only on a terminal: a pipe or a log gets nothing, and
// the line is wiped when the wait ends, so the answer that follows stands alone.
import type { Writable } from "node:stream";

const FRAMES = ["|", "/", "-", "\\"];
/** Waits shorter than this show nothing: most starts take less. */
const SHOW_AFTER_MS = 400;
const TICK_MS = 120;

export interface Spinner {
  /** What is being waited for now; `boundMs` is how long it may take at most. */
  say(what: string, boundMs?: number): void;
  /** Wipe the line; nothing more is drawn. */
  stop(): void;
}

const NONE: Spinner = { say() {}, stop() {} };

function seconds(ms: number): string {
  return `${Math.floor(ms / 1000)} s`;
}

export function spinnerOn(stderr: Writable, enabled: boolean): Spinner {
  const tty = stderr as Writable & { isTTY?: boolean; columns?: number };
  if (!enabled || !tty.isTTY) return NONE;
  let what = "";
  let bound: number | undefined;
  let since = Date.now();
  let frame = 0;
  let drawn = false;
  const draw = () => {
    const elapsed = Date.now() - since;
    if (what === "" || elapsed < SHOW_AFTER_MS) return;
    const limit = bound === undefined ? "" : ` of at most ${seconds(bound)}`;
    // The time first: on a narrow terminal the cut falls on the words, not on how long.
    let line = `${FRAMES[frame++ % FRAMES.length]} ${seconds(elapsed)}${limit}: ${what}`;
    // One line, never wrapped: a wrapped line could not be wiped with \r.
    const width = (tty.columns || 80) - 1;
    if ([...line].length > width) line = `${[...line].slice(0, width - 1).join("")}…`;
    stderr.write(`\r\u001b[K${line}`);
    drawn = true;
  };
  const timer = setInterval(draw, TICK_MS);
  // The spinner never keeps the process alive on its own.
  (timer as { unref?: () => void }).unref?.();
  return {
    say(text, boundMs) {
      what = text;
      bound = boundMs;
      since = Date.now();
    },
    stop() {
      clearInterval(timer);
      if (drawn) stderr.write("\r\u001b[K");
      drawn = false;
    },
  };
}
