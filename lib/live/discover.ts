// Pane discovery: exactly one `tmux list-panes -a -F …` per server, with the
// screens live needs in the same tmux process where it can.
import { type CaptureAllCall, listAndCapture, listAndCaptureAll } from "../tmux/capture";
import { tmuxSync } from "../tmux/run";
import type { PaneInfo } from "./types";

// A unit separator between fields: tmux prints it raw, and it does not occur in
// session names, paths or commands in practice. The title goes last so any
// separator inside it stays part of it.
const SEP = "\x1f";
const FIELDS = [
  "#{session_name}",
  "#{window_index}",
  "#{pane_index}",
  "#{pane_id}",
  "#{pane_current_command}",
  "#{pane_current_path}",
  "#{pane_dead}",
  "#{pane_active}",
  "#{pane_pid}",
  "#{pane_title}",
];
export const LIST_FORMAT = FIELDS.join(SEP);

/** The list that comes first in live's one call per server (lib/tmux listAndCaptureAll). */
export const LIST_PRELUDE = ["list-panes", "-a", "-F", LIST_FORMAT];

export function parsePaneLines(socket: string, text: string): PaneInfo[] {
  const panes: PaneInfo[] = [];
  for (const line of text.split("\n")) {
    if (!line) continue;
    const parts = line.split(SEP);
    if (parts.length < FIELDS.length) continue;
    const [session, windowIndex, paneIndex, paneId, command, cwd, dead, active, pid] = parts as string[];
    panes.push({
      socket,
      session: session!,
      windowIndex: windowIndex!,
      paneIndex: paneIndex!,
      paneId: paneId!,
      command: command!,
      cwd: cwd!,
      paneDead: dead === "1",
      paneActive: active === "1",
      panePid: Number(pid) || 0,
      title: parts.slice(FIELDS.length - 1).join(SEP),
    });
  }
  return panes;
}

/** Every pane of one server; none when the server is not running. */
export function listServerPanes(socket: string): PaneInfo[] {
  const r = tmuxSync(socket, ["list-panes", "-a", "-F", LIST_FORMAT]);
  if (r.code !== 0) return [];
  return parsePaneLines(socket, r.stdout);
}

/**
 * The panes of one server plus the screens of the named tmux sessions (each
 * session's visible pane), in a single tmux process: for the spex socket the
 * governed sessions are known from their records before any listing.
 */
export function listServerPanesCapturing(socket: string, sessions: string[]): { panes: PaneInfo[]; screens: Map<string, string> } {
  // `=name:` is the active pane of the session's current window; tmux names
  // the pane it captured, so the screens come back keyed by pane id.
  const r = listAndCapture(socket, ["list-panes", "-a", "-F", LIST_FORMAT], sessions.map((name) => `=${name}:`));
  if (!r.ok) return { panes: [], screens: new Map() };
  return { panes: parsePaneLines(socket, r.prelude ?? ""), screens: r.screens };
}

/**
 * Every pane of one server and the screen of each, in one tmux process (what
 * live needs when no filter narrows the panes before capture). A pane left
 * without a screen (it vanished while the screens were taken) is for the
 * caller to capture by id; a tmux without `run-shell -C` (before 3.2) gets the
 * plain list, and the caller captures every pane.
 */
export async function listServerPanesCapturingAll(socket: string, onList?: (panes: PaneInfo[]) => void, started?: CaptureAllCall): Promise<{ panes: PaneInfo[]; screens: Map<string, string> }> {
  // The list handed to onList is the prelude the call returns (lib/tmux hands it over once and whole): parsed once.
  let early: { text: string; panes: PaneInfo[] } | undefined;
  const r = await listAndCaptureAll(
    socket,
    LIST_PRELUDE,
    onList &&
      ((text) => {
        early = { text, panes: parsePaneLines(socket, text) };
        onList(early.panes);
      }),
    started,
  );
  if (!r.ok) return { panes: listServerPanes(socket), screens: new Map() };
  const prelude = r.prelude ?? "";
  return { panes: early?.text === prelude ? early.panes : parsePaneLines(socket, prelude), screens: r.screens };
}
