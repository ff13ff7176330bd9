// The tmux driver: every tmux call spex makes goes through lib/tmux, so
// sockets, config and batching are decided once. Running a call is in run.ts,
// many screens in one call in capture.ts; here are the server, its sessions,
// keys, pastes and pane states.
import { SpexError } from "../errors";
import { randomHex } from "../hash";
import { childProcess } from "../proc/child-process";
import { planServerStart, serverStartFacts } from "../survive/server-plan";
import { isPasteSafe, refuseUnsafeKeys } from "./input";
import { formatLiteral, tmuxFolder, tmuxWord } from "./quote";
import { type TmuxResult, baseArgs, tmuxEnv, tmuxSync } from "./run";
import { noSocketFile } from "./socket-file";

export { pasteSafeText, isPasteSafe, isSafeKey, refuseUnsafeKeys } from "./input";
export { formatLiteral, tmuxFolder, tmuxWord };
export { noSocketFile } from "./socket-file";
export { DEFAULT_SOCKET, type TmuxResult, baseArgs, serverOf, spexSocket, tmuxAsync, tmuxBatch, tmuxMissing, tmuxSync } from "./run";
export { type BatchCapture, type CaptureAllCall, captureAllArgs, captureMany, capturePane, listAndCapture, listAndCaptureAll, startCaptureAll } from "./capture";

/**
 * Is a server listening on this socket? No socket file settles "no" without a
 * process; a file left by a server that died (kill -9, a crash) is asked.
 * Undefined when tmux answered something else.
 */
export function serverRunning(socket: string): boolean | undefined {
  if (noSocketFile(socket)) return false;
  const r = tmuxSync(socket, ["list-sessions", "-F", "#{session_id}"]);
  if (r.code === 0) return true;
  return noServer(r) ? false : undefined;
}

const shownServers = new Map<string, { at: number; running: boolean | undefined }>();
const SHOWN_SERVER_MS = 1000;

/**
 * serverRunning for what is only shown (list rows): a listing, or a backend
 * answering one listing after another, asks each socket at most once a second.
 */
export function serverRunningShown(socket: string): boolean | undefined {
  const seen = shownServers.get(socket);
  if (seen && Date.now() - seen.at < SHOWN_SERVER_MS) return seen.running;
  const running = serverRunning(socket);
  shownServers.set(socket, { at: Date.now(), running });
  return running;
}

/**
 * A tmux command that may start the server (a `new-session`): when no server
 * listens yet, the client runs where the server it forks outlives the
 * terminal and the login (lib/survive/server-plan.ts); a server already
 * running is only a client call. A wrapper that fails before tmux runs (no
 * user bus after all) falls back to the plain start.
 */
export function tmuxStart(socket: string, args: string[]): TmuxResult {
  if (serverRunning(socket) !== false) return tmuxSync(socket, args);
  const plan = planServerStart(serverStartFacts(), socket, randomHex(3));
  if (plan.prefix.length === 0) return tmuxSync(socket, args);
  const [program, ...rest] = plan.prefix;
  const r = childProcess().spawnSync(program!, [...rest, "tmux", ...baseArgs(socket), ...args], { encoding: "utf8", env: tmuxEnv(), maxBuffer: 64 * 1024 * 1024 });
  if (!r.error && r.status === 0) return { code: 0, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
  // tmux made nothing (no server runs): the wrapper failed, or tmux refused before starting one.
  if (serverRunning(socket) === false) return tmuxSync(socket, args);
  return { code: r.status ?? -1, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

/** An exact-name target: `=name` stops tmux from prefix-matching another session. */
/** tmux user options spex sets on each session it opens: the main checkout and SPEX_HOME it belongs to. */
export const SPEX_PROJECT_OPTION = "@spex_project";
export const SPEX_HOME_OPTION = "@spex_home";

export function exactSession(name: string): string {
  return `=${name}`;
}

/**
 * The `target-pane` form of a session's active pane (`=name` alone does not
 * resolve to a pane), and the exact target of `list-panes -s`: there `=name`
 * is read as a window and can land on another session whose name starts with
 * `name` (tmux 3.3: `list-panes -s -t =mix` lists `mixed`).
 */
export function sessionPaneTarget(name: string): string {
  return `${exactSession(name)}:`;
}

export function hasSession(socket: string, name: string): boolean {
  return tmuxSync(socket, ["has-session", "-t", exactSession(name)]).code === 0;
}

export interface NewSessionOptions {
  socket: string;
  name: string;
  cwd: string;
  command: string;
  env?: Record<string, string>;
  width?: number;
  height?: number;
}

export function newSession(o: NewSessionOptions): TmuxResult {
  const args = ["new-session", "-d", "-s", formatLiteral(o.name), "-c", tmuxFolder(o.cwd), "-x", String(o.width ?? 200), "-y", String(o.height ?? 50)];
  for (const [k, v] of Object.entries(o.env ?? {})) args.push("-e", tmuxWord(`${k}=${v}`));
  args.push(tmuxWord(o.command));
  return tmuxStart(o.socket, args);
}

export function killSession(socket: string, name: string): TmuxResult {
  return tmuxSync(socket, ["kill-session", "-t", exactSession(name)]);
}

/** Pane ids of a session; empty when the session (or server) is gone. */
export function sessionPanes(socket: string, name: string): string[] {
  const r = tmuxSync(socket, ["list-panes", "-s", "-t", sessionPaneTarget(name), "-F", "#{pane_id}"]);
  return r.code === 0 ? r.stdout.split("\n").filter(Boolean) : [];
}

/** Keys into a pane: key names and plain words only (lib/tmux/input.ts); `--` ends tmux's options before them. */
export function sendKeys(socket: string, target: string, keys: string[]): TmuxResult {
  refuseUnsafeKeys(keys);
  return tmuxSync(socket, ["send-keys", "-t", target, "--", ...keys]);
}

export interface PasteResult extends TmuxResult {
  /** The pane was dead: nothing was pasted. */
  paneDead: boolean;
}

const DEAD_MARK = "@@spex-pane-dead@@";

/**
 * Paste text into a pane as one bracketed paste (multi-line text stays one
 * message), in one tmux process: load-buffer from stdin, then, only if the
 * pane is alive, paste-buffer -p -d. tmux 3.3a crashes (taking every session
 * with it) when it pastes into a dead pane, so the check runs inside the
 * server, in the same command list as the paste. The text must already be
 * paste-safe (pasteSafeText); anything else is refused here.
 */
export function pasteText(socket: string, target: string, text: string, bufferName: string): PasteResult {
  if (!isPasteSafe(text)) throw new SpexError("paste_unsafe", "refused to paste text with control characters into a pane", { hint: "pass it through pasteSafeText first" });
  // Both are spliced into tmux command strings below: pane ids and plain names only.
  if (!/^%\d+$/.test(target) || !/^[\w.-]+$/.test(bufferName)) throw new SpexError("usage", `cannot paste into ${target} through buffer ${bufferName}`);
  const r = tmuxSync(
    socket,
    [
      "load-buffer", "-b", bufferName, "-",
      ";", "if-shell", "-F", "-t", target, "#{pane_dead}",
      `display-message -p ${DEAD_MARK} ; delete-buffer -b ${bufferName}`,
      `paste-buffer -p -d -b ${bufferName} -t ${target}`,
    ],
    text,
  );
  if (r.code !== 0) tmuxSync(socket, ["delete-buffer", "-b", bufferName]);
  return { ...r, paneDead: r.code === 0 && r.stdout.includes(DEAD_MARK) };
}

export interface PaneState {
  id: string;
  dead: boolean;
}

/**
 * Every pane of a session and whether it is dead; `gone` with tmux's words when
 * it says the session or its server is not there; undefined for any other
 * refusal (a client that could not finish), which says nothing either way.
 */
export function sessionPaneStates(socket: string, name: string): { panes: PaneState[] } | { gone: string } | undefined {
  const r = tmuxSync(socket, ["list-panes", "-s", "-t", sessionPaneTarget(name), "-F", "#{pane_id} #{pane_dead}"]);
  if (r.code === 0) {
    const panes: PaneState[] = [];
    for (const line of r.stdout.split("\n")) {
      const [id, dead] = line.trim().split(" ");
      if (id) panes.push({ id, dead: dead === "1" });
    }
    return { panes };
  }
  const said = r.stderr.trim();
  return /can't find session|no server running|error connecting/.test(said) ? { gone: said } : undefined;
}

/** The first pane of a session and whether it is dead; undefined when the session (or server) is gone. */
export function sessionPane(socket: string, name: string): PaneState | undefined {
  const states = sessionPaneStates(socket, name);
  return states && "panes" in states ? states.panes[0] : undefined;
}

/** tmux's answer when nothing listens on the socket (or the server is going away). */
export function noServer(r: TmuxResult): boolean {
  return r.code !== 0 && /no server running|error connecting|server exited/.test(r.stderr);
}

/** Every session of a server with its first pane (empty when no server runs); undefined when tmux failed otherwise. */
export function serverPanes(socket: string): Map<string, PaneState> | undefined {
  const r = tmuxSync(socket, ["list-panes", "-a", "-F", "#{session_name}\t#{pane_id} #{pane_dead}"]);
  if (noServer(r)) return new Map();
  if (r.code !== 0) return undefined;
  const out = new Map<string, PaneState>();
  for (const line of r.stdout.split("\n")) {
    const tab = line.lastIndexOf("\t");
    if (tab < 0) continue;
    const name = line.slice(0, tab);
    const [id, dead] = line.slice(tab + 1).split(" ");
    if (id && !out.has(name)) out.set(name, { id, dead: dead === "1" });
  }
  return out;
}
