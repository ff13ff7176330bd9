// A session's screen: its pane as it is now, or, once the pane is gone, the
// copy saved when it was stopped or archived (last-screen.txt). Screens are
// display text (DESIGN.md §1.10).
import { SpexError } from "../errors";
import { readFileNoFollow, writeFileNoFollow } from "../nofollow";
import { type RecordReading, type SessionRecord, publicRecord, refuseUnusable } from "../record";
import type { ProjectStore } from "../store";
import { sessionPaneTarget } from "../tmux";
import { MAX_READ_HISTORY, type PaneScreen, type ScreenOptions, readPaneScreen, readPaneScreenAsync, trimScreenEnd } from "../tmux/screen";

/** Lines of scrollback kept above the visible screen in last-screen.txt. */
export const LAST_SCREEN_HISTORY = 200;

const LAST_SCREEN = "last-screen.txt";

export interface SessionScreen {
  id: string;
  /** `pane`: read from its tmux pane now; `last-screen`: the copy saved at stop or archive; `none`: neither exists. */
  source: "pane" | "last-screen" | "none";
  /** The pane is there and its process runs. */
  live: boolean;
  /** Colours kept as ANSI SGR sequences (a saved copy is always plain). */
  styled: boolean;
  /** Lines of scrollback asked for above the visible screen. */
  history: number;
  screen: string;
}

/** `--history N` as given by a user or a URL: a whole number, at most MAX_READ_HISTORY. */
export function parseHistory(text: string | undefined): number {
  if (text === undefined || text === "") return 0;
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n > MAX_READ_HISTORY) {
    throw new SpexError("usage", `--history takes a number of lines from 0 to ${MAX_READ_HISTORY}, not ${JSON.stringify(text)}`, {
      hint: "e.g. --history 200 adds 200 lines of scrollback above the screen",
      exitCode: 2,
      httpStatus: 400,
    });
  }
  return n;
}

/** The saved last screen, or undefined when none was saved (a link planted in its place is not followed: none). */
export function readLastScreen(store: ProjectStore, id: string): string | undefined {
  try {
    return readFileNoFollow(store.sessionsDir, `${id}/${LAST_SCREEN}`);
  } catch (e) {
    if (e instanceof SpexError && e.code === "unsafe_path") return undefined;
    throw e;
  }
}

/**
 * Save the pane's screen (with some scrollback) as the session's last screen,
 * never through a link; returns its bytes, or null when there is no pane.
 */
export function saveLastScreen(store: ProjectStore, id: string, record: Pick<SessionRecord, "tmux_socket" | "tmux_session">): number | null {
  if (!record.tmux_session) return null;
  const pane = readPaneScreen(record.tmux_socket, sessionPaneTarget(record.tmux_session), { history: LAST_SCREEN_HISTORY });
  if (!pane) return null;
  const text = pane.screen + "\n";
  writeFileNoFollow(store.sessionsDir, `${id}/${LAST_SCREEN}`, text, { mode: 0o644 });
  return Buffer.byteLength(text);
}

/** The session's screen now: its pane when there is one, else its saved last screen. */
export function readSessionScreen(store: ProjectStore, reading: RecordReading, opts: ScreenOptions = {}): SessionScreen {
  refuseUnusable(reading, { allowRetired: true });
  const view = publicRecord(reading.record, reading.pending);
  const pane = view.tmux_session ? readPaneScreen(view.tmux_socket, sessionPaneTarget(view.tmux_session), opts) : undefined;
  return screenOf(store, reading.id, pane, opts);
}

/** readSessionScreen without blocking the event loop (the board's preview): the same reads, the tmux call awaited. */
export async function readSessionScreenAsync(store: ProjectStore, reading: RecordReading, opts: ScreenOptions = {}): Promise<SessionScreen> {
  refuseUnusable(reading, { allowRetired: true });
  const view = publicRecord(reading.record, reading.pending);
  const pane = view.tmux_session ? await readPaneScreenAsync(view.tmux_socket, sessionPaneTarget(view.tmux_session), opts) : undefined;
  return screenOf(store, reading.id, pane, opts);
}

function screenOf(store: ProjectStore, id: string, pane: PaneScreen | undefined, opts: ScreenOptions): SessionScreen {
  const history = opts.history ?? 0;
  const styled = opts.styled ?? false;
  if (pane) return { id, source: "pane", live: !pane.dead, styled, history, screen: pane.screen };
  const saved = readLastScreen(store, id);
  if (saved !== undefined) return { id, source: "last-screen", live: false, styled: false, history, screen: trimScreenEnd(saved) };
  return { id, source: "none", live: false, styled, history, screen: "" };
}
