// Reading a pane's screen for a person or an orchestrator (`session read`,
// `terminal read`, `show`): the rows as the pane shows them now, optionally
// with their colours (SGR sequences, `capture-pane -e`) and scrollback above.
// What comes back is display text (DESIGN.md §1.10): never parsed for commands.
import { sleepSync } from "../proc/sleep";
import { type TmuxResult, tmuxAsync, tmuxSync } from "./run";

export interface ScreenOptions {
  /** Lines of scrollback above the visible screen (0: the screen alone). */
  history?: number;
  /** Keep the colours and attributes as ANSI SGR sequences. */
  styled?: boolean;
}

export interface PaneScreen {
  /** The pane's process has exited (the pane is kept, showing its last screen). */
  dead: boolean;
  screen: string;
}

/** tmux keeps 2,000 lines of scrollback by default; a read never asks for more than this. */
export const MAX_READ_HISTORY = 100_000;

const SGR = /\u001b\[[0-9;:]*m/g;
const RESET = "\u001b[0m";

/**
 * The screen without the blank rows a terminal pads it with. A styled blank
 * row may still carry colour changes; it counts as blank all the same, and a
 * styled screen ends with a reset so it never leaves a reader's terminal coloured.
 */
export function trimScreenEnd(text: string, styled = false): string {
  const rows = text.replace(/\n$/, "").split("\n");
  while (rows.length > 0 && rows[rows.length - 1]!.replace(SGR, "").trim() === "") rows.pop();
  const out = rows.map((r) => (styled ? r : r.replace(/[ \t]+$/, ""))).join("\n");
  return styled && out.includes("\u001b[") ? out + RESET : out;
}

function captureArgs(target: string, styled: boolean | undefined, history: number): string[] {
  const capture = ["capture-pane", "-p", "-t", target];
  if (styled) capture.push("-e");
  if (history > 0) capture.push("-S", String(-history));
  return capture;
}

// Whether the pane is dead, and whether tmux has its exit yet (a status or a signal).
const DEAD_FORMAT = "#{pane_dead}:#{pane_dead_status}#{pane_dead_signal}";

function parseDead(line: string): { dead: boolean; exitKnown: boolean } {
  const [dead, exit] = line.trim().split(":");
  return { dead: dead === "1", exitKnown: !!exit };
}

/** The first call of a read: whether the pane is dead, then its rows (no `-J`: rows as shown, wrapped lines stay wrapped). */
function firstCall(target: string, opts: ScreenOptions, history: number): string[] {
  return ["display-message", "-p", "-t", target, DEAD_FORMAT, ";", ...captureArgs(target, opts.styled, history)];
}

/** What the first call printed: undefined when the target is gone, else whether it is dead (and its exit known) and its text. */
function parseFirst(r: TmuxResult): { dead: boolean; exitKnown: boolean; text: string } | undefined {
  if (r.code !== 0) return undefined;
  const cut = r.stdout.indexOf("\n");
  if (cut < 0) return undefined;
  return { ...parseDead(r.stdout.slice(0, cut)), text: r.stdout.slice(cut + 1) };
}

/**
 * tmux before 3.6, built with utempter (Debian, Ubuntu), loses a pane's exit
 * when it sees the end of output first: the pane reads dead with no status
 * and no "Pane is dead" line, its process a zombie until some other child of
 * the server exits (6 of 12 shells ended with `exit` here). A job of the
 * server's own that ends at once is such a child; the read waits for tmux to
 * take the exit (at most about a fifth of a second) before it reads on.
 * Once per pane and process: a tmux that never shows the exit (3.2 has no
 * pane_dead_signal) must not cost the board that wait every second.
 */
const REAP_NUDGE = ["run-shell", "-b", "true"];
const REAP_TRIES = 20;
const REAP_EVERY_MS = 10;
const reaped = new Set<string>();

/** Whether this read should make tmux take a lost exit: a dead pane without one, not tried before. */
function shouldReap(socket: string, target: string, first: { dead: boolean; exitKnown: boolean }): boolean {
  if (!first.dead || first.exitKnown) return false;
  const key = `${socket}\u0000${target}`;
  if (reaped.has(key)) return false;
  reaped.add(key);
  return true;
}

const exitShown = (r: TmuxResult) => r.code !== 0 || parseDead(r.stdout).exitKnown;

function reapSync(socket: string, target: string): void {
  tmuxSync(socket, REAP_NUDGE);
  for (let i = 0; i < REAP_TRIES; i++) {
    if (exitShown(tmuxSync(socket, ["display-message", "-p", "-t", target, DEAD_FORMAT]))) return;
    sleepSync(REAP_EVERY_MS);
  }
}

async function reapAsync(socket: string, target: string): Promise<void> {
  await tmuxAsync(socket, REAP_NUDGE);
  for (let i = 0; i < REAP_TRIES; i++) {
    if (exitShown(await tmuxAsync(socket, ["display-message", "-p", "-t", target, DEAD_FORMAT]))) return;
    await new Promise((r) => setTimeout(r, REAP_EVERY_MS));
  }
}

const historyOf = (opts: ScreenOptions) => Math.min(Math.max(opts.history ?? 0, 0), MAX_READ_HISTORY);

/**
 * One tmux call: whether the pane is dead, then its rows. Undefined when the
 * target is gone. A dead pane is read once more (below).
 */
export function readPaneScreen(socket: string, target: string, opts: ScreenOptions = {}): PaneScreen | undefined {
  const history = historyOf(opts);
  const first = parseFirst(tmuxSync(socket, firstCall(target, opts, history)));
  if (!first) return undefined;
  let text = first.text;
  if (first.dead) {
    if (shouldReap(socket, target, first)) reapSync(socket, target);
    // tmux writes "Pane is dead" on a new bottom row, scrolling the top row of the last screen into
    // the scrollback: read one more line, so the screen reads as the program left it.
    const again = tmuxSync(socket, captureArgs(target, opts.styled, history + 1));
    if (again.code === 0) text = again.stdout;
  }
  return { dead: first.dead, screen: trimScreenEnd(text, opts.styled) };
}

/** readPaneScreen without blocking the caller's event loop (the board reads the selected pane every second). */
export async function readPaneScreenAsync(socket: string, target: string, opts: ScreenOptions = {}): Promise<PaneScreen | undefined> {
  const history = historyOf(opts);
  const first = parseFirst(await tmuxAsync(socket, firstCall(target, opts, history)));
  if (!first) return undefined;
  let text = first.text;
  if (first.dead) {
    if (shouldReap(socket, target, first)) await reapAsync(socket, target);
    const again = await tmuxAsync(socket, captureArgs(target, opts.styled, history + 1));
    if (again.code === 0) text = again.stdout;
  }
  return { dead: first.dead, screen: trimScreenEnd(text, opts.styled) };
}
