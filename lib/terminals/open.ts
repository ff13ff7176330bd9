// Opening and closing terminals. A terminal is its own tmux session on the
// spex socket (so stopping an agent never takes a shell with it), started in a
// session's worktree or the main checkout, with no worktree or branch of its
// own. A terminal beside a session is made under that session's record lock,
// and close holds the same lock while it closes the session's terminals: a
// terminal is never left behind by a close that ran at the same moment.
import { statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { loadConfig } from "../config";
import { SpexError, errnoCode } from "../errors";
import { withLock } from "../lock";
import { shortId, slugify } from "../naming";
import { readSession, refuseUnusable } from "../record";
import { type ProjectStore, recordLockPath } from "../store";
import { SPEX_HOME_OPTION, SPEX_PROJECT_OPTION, exactSession, formatLiteral, killSession, sessionPaneTarget, sessionPanes, spexSocket, tmuxFolder, tmuxStart, tmuxSync, tmuxWord } from "../tmux";
import { tmuxCommandLine } from "../tmux/quote";
import { defaultTerminalName, refuseInvalidTerminalName, refuseTakenTerminalName, takenTerminalNames, terminalOwner, terminalsLockPath } from "./names";
import { type TerminalReading, type TerminalRecord, finishInterruptedTerminalCloses, listTerminalIds, namesIdPrefix, readTerminal, removeTerminalRecord, writeTerminal } from "./record";
import { randomId } from "../hash";
import { portEnv } from "../workspace/ports-env";
import { launcherLocale } from "../launch/choices";

/** tmux user option naming the terminal a tmux session belongs to. */
export const SPEX_TERMINAL_OPTION = "@spex_terminal";

/** What a session's agent is told in its environment; a terminal must not pass for that session. */
const SESSION_IDENTITY = ["SPEX_SESSION_ID", "SPEX_RECORD", "SPEX_HARNESS"];

export interface NewTerminalInput {
  /** The session (already resolved to its id) whose worktree the terminal opens in. */
  session?: string;
  name?: string;
  /** Where it starts: relative to the worktree (or the main checkout), or absolute. */
  dir?: string;
  /** A program and its arguments, run as they are (no shell); empty for the user's login shell. */
  command?: string[];
}

/** The folder a terminal starts in: must exist and be a folder. */
function startDirectory(base: string, dir: string | undefined): string {
  const path = dir ? (isAbsolute(dir) ? dir : resolve(base, dir)) : base;
  let folder = false;
  try {
    folder = statSync(path).isDirectory();
  } catch (e) {
    if (errnoCode(e) !== "ENOENT" && errnoCode(e) !== "ENOTDIR") throw e;
  }
  if (!folder) {
    throw new SpexError("directory_missing", `${path} is not a folder; the terminal was not opened`, {
      hint: `--dir is relative to ${base} (or absolute) and must exist`,
      details: { directory: path },
      httpStatus: 400,
    });
  }
  return path;
}

/** A tmux session name: ASCII letters, digits and dashes only (tmux reads `.` and `:` as separators). */
function tmuxNameFor(name: string, id: string): string {
  const slug = slugify(name).replace(/[^a-z0-9-]+/g, "").replace(/^-+|-+$/g, "").slice(0, 30);
  return `term-${slug || "t"}-${shortId(id, 8)}`;
}

/**
 * Runs the terminal's command, then makes sure tmux keeps all it printed and learns how it ended.
 * tmux 3.3a marks a pane dead on the child's exit and closes it with what the kernel had not yet
 * handed over still unread (a quick command's last lines: about one in sixty even with the pane
 * piped). So after the command a title is set and read back through tmux: once tmux shows it, tmux
 * has parsed everything before it. And where tmux is built with utempter (Debian, Ubuntu) before
 * 3.6, the end of output seen first makes tmux remove the utmp record with SIGCHLD at its default,
 * losing the exit: the pane reads dead with no status and no "Pane is dead" line, the shell left a
 * zombie until some other child of the server exits. A holder that ignores the hangup keeps the
 * terminal open until tmux has taken the exit, so the exit always comes first; it pokes the server
 * with a short job each half second in case the exit was lost anyway (panes dying at once).
 * Ctrl-C still reaches the command (a caught INT resets on exec); a command killed by a signal
 * ends the shell by the same signal, so the "Pane is dead" line names it. Every wait is bounded.
 */
const DRAIN_THEN_EXIT = [
  "trap : INT QUIT",
  '"$@"',
  "s=$?",
  "trap - INT QUIT",
  'if [ -n "${TMUX_PANE:-}" ]; then',
  "  mark=spex-drained-$$ title=$(printf '\\043{pane_title}') dead=$(printf '\\043{pane_dead}') i=0",
  "  printf '\\033]2;%s\\033\\\\' \"$mark\"",
  '  while [ "$i" -lt 200 ]; do',
  '    seen=$(tmux display-message -p -t "$TMUX_PANE" "$title" 2>/dev/null) || break',
  '    [ "$seen" = "$mark" ] && break',
  "    sleep 0.01 2>/dev/null || break",
  "    i=$((i + 1))",
  "  done",
  "  (",
  "    trap '' HUP",
  "    i=0",
  '    while [ "$i" -lt 100 ]; do',
  "      sleep 0.05 2>/dev/null || sleep 1",
  '      now=$(tmux display-message -p -t "$TMUX_PANE" "$dead" 2>/dev/null) || break',
  '      [ "$now" = 1 ] && break',
  '      if [ $((i % 10)) -eq 9 ]; then tmux run-shell -b true 2>/dev/null; fi',
  "      i=$((i + 1))",
  "    done",
  "  ) </dev/null 2>/dev/null &",
  "fi",
  'if [ "$s" -gt 128 ] && [ "$s" -lt 160 ]; then kill -$((s - 128)) $$; fi',
  'exit "$s"',
].join("\n");

function startTmux(store: ProjectStore, record: TerminalRecord, env: Record<string, string> = {}): void {
  const { tmux_socket: socket, tmux_session: name } = record;
  const session = exactSession(name);
  const pane = sessionPaneTarget(name);
  const argv = record.command.length > 0 ? ["--", "sh", "-c", DRAIN_THEN_EXIT, "spex-terminal", ...record.command.map(tmuxWord)] : [];
  const dir = tmuxFolder(record.directory);
  // Opened on a placeholder so remain-on-exit and the environment are in place before the real program starts:
  // a command that exits at once still leaves its last screen to read.
  const started = tmuxStart(socket, [
    "new-session", "-d", "-P", "-F", "#{session_id}", "-s", formatLiteral(name), "-c", dir, "-x", "200", "-y", "50",
    ";", "set-option", "-w", "-t", pane, "remain-on-exit", "on",
    ";", "set-option", "-t", pane, SPEX_PROJECT_OPTION, tmuxWord(store.root),
    ";", "set-option", "-t", pane, SPEX_HOME_OPTION, tmuxWord(store.home),
    ";", "set-option", "-t", pane, SPEX_TERMINAL_OPTION, record.terminal_id,
    ";", "set-environment", "-t", session, "SPEX_TERMINAL_ID", record.terminal_id,
    ";", "set-environment", "-t", session, "SPEX_HOME", tmuxWord(store.home),
    ";", "set-environment", "-t", session, "SPEX_TMUX", socket,
    ...SESSION_IDENTITY.flatMap((v) => [";", "set-environment", "-t", session, "-r", v]),
    // The opener's locale, not the server's (lib/launch/choices.ts): one it lacks is removed.
    ...Object.entries(launcherLocale()).flatMap(([k, v]) => (v ? [";", "set-environment", "-t", session, k, tmuxWord(v)] : [";", "set-environment", "-t", session, "-r", k])),
    // What the session's terminals share with its agent: its port block (lib/workspace).
    ...Object.entries(env).flatMap(([k, v]) => [";", "set-environment", "-t", session, k, tmuxWord(v)]),
    ";", "respawn-pane", "-k", "-t", pane, "-c", dir, ...argv,
  ]);
  if (started.code === 0) return;
  // -P printed the id only if this call made the session: nothing made by anyone else is killed.
  const made = /^\$\d+$/m.exec(started.stdout)?.[0];
  if (made) tmuxSync(socket, ["kill-session", "-t", made]);
  throw new SpexError("tmux_failed", `tmux could not open the terminal ${name}: ${started.stderr.trim()}`, {
    hint: "check that tmux works here (`spex doctor`)",
  });
}

async function openTerminal(store: ProjectStore, input: NewTerminalInput, base: string, owner: string, env: Record<string, string> = {}): Promise<TerminalRecord> {
  const id = randomId();
  const directory = startDirectory(base, input.dir);
  // The name is checked (or chosen) and the record written under one lock: two opens never take one name.
  const record = await withLock(
    terminalsLockPath(store),
    () => {
      const taken = takenTerminalNames(store);
      if (input.name) refuseTakenTerminalName(taken, input.name);
      const name = input.name || defaultTerminalName(taken, owner);
      const made: TerminalRecord = {
        terminal_id: id,
        name,
        session: input.session ?? "",
        project_root: store.root,
        directory,
        command: input.command ?? [],
        tmux_socket: spexSocket(loadConfig(store.root).tmuxSocket),
        tmux_session: tmuxNameFor(name, id),
        createdAt: new Date().toISOString(),
      };
      // The record lands first, so a terminal whose start failed half-way is still listed and closable.
      writeTerminal(store, made);
      return made;
    },
    { purpose: `open terminal ${id}` },
  );
  try {
    startTmux(store, record, env);
  } catch (e) {
    removeTerminalRecord(store, id);
    throw e;
  }
  return record;
}

/** Open a terminal in a session's worktree (under its record lock) or in the main checkout. */
export async function newTerminal(store: ProjectStore, input: NewTerminalInput): Promise<TerminalRecord> {
  if (input.name !== undefined && input.name !== "") refuseInvalidTerminalName(input.name);
  const session = input.session;
  if (!session) return openTerminal(store, input, store.root, terminalOwner(undefined));
  return withLock(
    recordLockPath(store, session),
    () => {
      const reading = readSession(store, session);
      // A retired session has no worktree to open a shell in.
      refuseUnusable(reading);
      return openTerminal(store, input, reading.record.worktree_path, terminalOwner(reading.record), portEnv(reading.record.ports));
    },
    { purpose: `open a terminal beside ${session}` },
  );
}

export interface TerminalClose {
  id: string;
  name: string;
  /** What happened to its tmux session. */
  tmux: "killed" | "absent" | "unknown";
  /** False when another close removed the record first. */
  removed: boolean;
}

/** End a terminal's tmux session, prove no pane is left, then remove its record. */
export function closeTerminal(store: ProjectStore, reading: Exclude<TerminalReading, { kind: "absent" }>): TerminalClose {
  const closed = closeOneTerminal(store, reading);
  // What closes killed after their rename left is finished by the next close (one scan of terminals/).
  finishInterruptedTerminalCloses(store);
  return closed;
}

function closeOneTerminal(store: ProjectStore, reading: Exclude<TerminalReading, { kind: "absent" }>): TerminalClose {
  if (reading.kind === "corrupt") {
    // Nothing in it can be trusted to name a tmux session: only the file goes.
    return { id: reading.id, name: "", tmux: "unknown", removed: removeTerminalRecord(store, reading.id) };
  }
  const { tmux_socket: socket, tmux_session: name } = reading.record;
  const killed = killSession(socket, name).code === 0;
  const left = sessionPanes(socket, name);
  if (left.length > 0) {
    throw new SpexError("tmux_pane_left", `terminal ${shortId(reading.id, 8)}: tmux session ${name} still has panes ${left.join(", ")} after kill-session; its record was kept`, {
      hint: `inspect it with \`${tmuxCommandLine(socket || "default", ["list-panes", "-s", "-t", sessionPaneTarget(name)])}\``,
      details: { tmuxSession: name, panes: left },
    });
  }
  return { id: reading.id, name: reading.record.name, tmux: killed ? "killed" : "absent", removed: removeTerminalRecord(store, reading.id) };
}

/**
 * For a selector that names no terminal: finish every close that was killed
 * after its record went out of sight, and say which of them the selector
 * names (a full id or an id prefix), if any.
 */
export function finishInterruptedTerminalClose(store: ProjectStore, selector: string): string | undefined {
  const want = selector.toLowerCase();
  return finishInterruptedTerminalCloses(store).find((id) => namesIdPrefix(id, want));
}

/**
 * Close every terminal opened beside a session. The caller (session close)
 * holds the session's record lock, so no new one can appear meanwhile.
 */
export function closeSessionTerminals(store: ProjectStore, session: string): TerminalClose[] {
  const closed: TerminalClose[] = [];
  finishInterruptedTerminalCloses(store);
  for (const id of listTerminalIds(store)) {
    const reading = readTerminal(store, id);
    if (reading.kind === "ok" && reading.record.session === session) closed.push(closeOneTerminal(store, reading));
  }
  return closed;
}
