// The tmux driver: every tmux call spex makes goes through here, so sockets,
// config and batching are decided once.
import { SpexError } from "../errors";
import { isPasteSafe, refuseUnsafeKeys } from "./input";

export { pasteSafeText, isPasteSafe, isSafeKey, refuseUnsafeKeys } from "./input";
import { formatLiteral, tmuxFolder, tmuxWord } from "./quote";
import { randomHex } from "../hash";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { planServerStart, serverStartFacts } from "../survive/server-plan";
import { childProcess } from "../proc/child-process";
export { formatLiteral, tmuxFolder, tmuxWord };

/** The socket name of the user's own tmux server: where plain `tmux` (outside tmux) goes. */
export const DEFAULT_SOCKET = "default";

/**
 * The socket new sessions go to (`tmux -L <name>`): SPEX_TMUX, else
 * `tmux.socket` of spexcode.json (the caller passes it), else a dedicated
 * `spex` server, so a stray `kill-server` on the user's own cannot take the
 * fleet down. `default` puts them on the user's own server.
 */
export function spexSocket(configured = "", env: NodeJS.ProcessEnv = process.env): string {
  return env.SPEX_TMUX || configured || "spex";
}

/** One name per server: `default` and "" both name the user's own; "" is the one live rows use. */
export function serverOf(socket: string): string {
  return socket === DEFAULT_SOCKET ? "" : socket;
}

/**
 * A socket of "" means the user's default tmux server. `-u` because a tmux
 * client whose LC_ALL/LC_CTYPE/LANG names no UTF-8 (unset, C, POSIX: cron,
 * systemd, containers, an ssh server without AcceptEnv) prints every control
 * character and non-ASCII byte of a format as `_`: the field separators of
 * `list-panes -F` and every unicode folder, title or session name. spex reads
 * what these calls print, so its own client is UTF-8 whatever locale it got.
 */
export function baseArgs(socket: string): string[] {
  const args = socket ? ["-u", "-L", socket] : ["-u"];
  // Only consulted when a command starts the server.
  const conf = process.env.SPEX_TMUX_CONF;
  if (conf) args.push("-f", conf);
  return args;
}

export interface TmuxResult {
  code: number;
  stdout: string;
  stderr: string;
}

function tmuxEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  // Inside a tmux pane TMUX points at that server: never let it redirect our calls.
  delete env.TMUX;
  delete env.TMUX_PANE;
  // A server started from inside an agent must not carry that session's identity into every
  // pane it opens later (stop ends whatever runs with a session's id: lib/teardown/strays.ts).
  delete env.SPEX_SESSION_ID;
  delete env.SPEX_RECORD;
  delete env.SPEX_HARNESS;
  return env;
}

/** tmux that cannot even be started: say so plainly instead of a bare ENOENT. */
function tmuxSpawnError(e: Error): Error {
  if ((e as NodeJS.ErrnoException).code !== "ENOENT") return e;
  return new SpexError("tmux_missing", "tmux is not installed (or not on PATH); spex runs every session in tmux", {
    hint: "install it (e.g. `apt-get install tmux`, `brew install tmux`), then check with `spex doctor`",
  });
}

// A synchronous tmux call uses Bun's own spawnSync in the binary (a third of
// the CPU of node:child_process's: live makes several tmux calls per run, a
// hook one or two); Node, and every asynchronous call, load node:child_process
// on first use (lib/proc/child-process).

const MAX_OUTPUT = 64 * 1024 * 1024;

export function tmuxSync(socket: string, args: string[], input?: string | Buffer): TmuxResult {
  const argv = [...baseArgs(socket), ...args];
  if (typeof Bun !== "undefined") {
    let r: ReturnType<typeof Bun.spawnSync>;
    try {
      r = Bun.spawnSync({ cmd: ["tmux", ...argv], env: tmuxEnv(), stdin: input === undefined ? "ignore" : Buffer.from(input), stdout: "pipe", stderr: "pipe", maxBuffer: MAX_OUTPUT });
    } catch (e) {
      throw tmuxSpawnError(e as Error);
    }
    return { code: r.exitCode ?? -1, stdout: r.stdout?.toString("utf8") ?? "", stderr: r.stderr?.toString("utf8") ?? "" };
  }
  const r = childProcess().spawnSync("tmux", argv, { encoding: "utf8", env: tmuxEnv(), input, maxBuffer: MAX_OUTPUT });
  if (r.error) throw tmuxSpawnError(r.error);
  return { code: r.status ?? -1, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

/**
 * One tmux process, waited on without blocking. `onOutput`, when given, sees
 * the output so far each time more of it arrives (tmux writes what a command
 * printed before it runs the commands a `run-shell -C` generated).
 */
export async function tmuxAsync(socket: string, args: string[], input?: string | Buffer, onOutput?: (soFar: string) => void): Promise<TmuxResult> {
  if (typeof Bun !== "undefined" && input === undefined && onOutput) {
    // Bun's own spawn for live's streamed listing: node:child_process is a module of its own to load
    // (9 ms of live at 200 panes). The other async callers run in long-lived processes (the
    // dashboard's backend: typing, frames) that pay that load once, and keep child_process.
    const start = () => {
      try {
        return Bun.spawn({ cmd: ["tmux", ...baseArgs(socket), ...args], env: tmuxEnv(), stdin: "ignore", stdout: "pipe", stderr: "pipe" } as const);
      } catch (e) {
        throw tmuxSpawnError(e as Error);
      }
    };
    const child = start();
    const readOut = async () => {
      if (!onOutput) return new Response(child.stdout).text();
      const decoder = new TextDecoder();
      let text = "";
      for await (const chunk of child.stdout) {
        text += decoder.decode(chunk, { stream: true });
        onOutput(text);
      }
      return text + decoder.decode();
    };
    const [stdout, stderr, code] = await Promise.all([readOut(), new Response(child.stderr).text(), child.exited]);
    return { code, stdout, stderr };
  }
  return new Promise((resolve, reject) => {
    const child = childProcess().spawn("tmux", [...baseArgs(socket), ...args], { env: tmuxEnv(), stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
      onOutput?.(stdout);
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", (e) => reject(tmuxSpawnError(e)));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** The socket file of a server: `$TMUX_TMPDIR/tmux-<uid>/<name>` (tmux's own rule), `default` for the user's. */
function socketFile(socket: string): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  return join(process.env.TMUX_TMPDIR || "/tmp", `tmux-${uid}`, socket || DEFAULT_SOCKET);
}

/** No server can be listening: its socket file is not there (settled without starting a tmux process). */
export function noSocketFile(socket: string): boolean {
  const file = socketFile(socket);
  return file !== undefined && !existsSync(file);
}

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

/** Run several tmux commands in one process, separated by `;` arguments. */
export function tmuxBatch(socket: string, commands: string[][]): TmuxResult {
  const args: string[] = [];
  commands.forEach((c, i) => {
    if (i > 0) args.push(";");
    args.push(...c);
  });
  return tmuxSync(socket, args);
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

/** The visible screen of a pane (plus `history` lines of scrollback). */
export function capturePane(socket: string, target: string, history = 0): string | undefined {
  const args = ["capture-pane", "-p", "-J", "-t", target];
  if (history > 0) args.push("-S", String(-history));
  const r = tmuxSync(socket, args);
  return r.code === 0 ? r.stdout : undefined;
}

/**
 * Capture many panes of one server in one tmux process; screens by pane id.
 * A pane that vanished since it was listed is skipped, the rest captured.
 */
export function captureMany(socket: string, targets: string[], history = 0): Map<string, string> {
  return listAndCapture(socket, undefined, targets, history).screens;
}

export interface BatchCapture {
  /** Output of the prelude command (undefined without one). */
  prelude: string | undefined;
  /** False when the prelude failed (no server): nothing else ran. */
  ok: boolean;
  /** Screens by the pane id tmux resolved each target to. */
  screens: Map<string, string>;
}

// tmux takes a whole command list as one message of at most 16 KB (its
// MAX_IMSGSIZE, less the message headers: 16,364 bytes of NUL-terminated
// arguments); a batch is cut into parts that fit, with room to spare.
const MAX_COMMAND_BYTES = 16364 - 512;

function argBytes(commands: string[][]): number {
  let n = 0;
  for (const c of commands) for (const a of c) n += Buffer.byteLength(a) + 1;
  return n + commands.length * 2;
}

/**
 * One tmux process per server (per 16 KB of commands: about 220 panes): an
 * optional first command (e.g. a `list-panes`) whose output is returned as
 * `prelude`, then every target's capture, each followed by a marker line that
 * tmux prints with the pane id it captured. The marker's own text holds only
 * letters, digits, `@` and a space: display-message expands `#…` formats and
 * `%…` time formats, so a pane id spelled into the text would come back
 * altered; tmux fills in `#{pane_id}` itself instead. A per-call random nonce
 * means pane text cannot forge a marker. A command list stops at its first
 * failure (a pane that vanished since it was listed): that target is skipped
 * and the rest captured by another call.
 */
export function listAndCapture(socket: string, prelude: string[] | undefined, targets: string[], history = 0): BatchCapture {
  const screens = new Map<string, string>();
  const mark = `@@${randomHex(6)}@@`;
  const begin = beginLine(mark);
  const ended = new RegExp(`^${mark}(\\d+) (%\\d+)$`);
  // Joined flags and `display` (tmux's own short name for display-message):
  // shorter commands put more panes in one tmux process.
  const captureOf = (i: number): string[][] => {
    const cap = history > 0 ? ["capture-pane", "-pJ", "-S", String(-history), "-t", targets[i]!] : ["capture-pane", "-pJt", targets[i]!];
    return [cap, ["display", "-pt", targets[i]!, `${mark}${i} #{pane_id}`]];
  };
  const budget = MAX_COMMAND_BYTES - argBytes([baseArgs(socket)]);
  let head: string | undefined;
  let from = 0;
  let first = prelude;
  while (from < targets.length || first) {
    const commands: string[][] = first ? [first, ["display-message", "-p", begin]] : [];
    let size = argBytes(commands);
    let end = from;
    for (; end < targets.length; end++) {
      const more = captureOf(end);
      const add = argBytes(more);
      if (end > from && size + add > budget) break;
      commands.push(...more);
      size += add;
    }
    const r = tmuxBatch(socket, commands);
    const lines = r.stdout.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    let chunk: string[] = [];
    let begun = !first;
    let next = from;
    for (const line of lines) {
      if (!begun && line === begin) {
        head = chunk.join("\n");
        chunk = [];
        begun = true;
        continue;
      }
      // Only the marker of the next expected target counts, with a real pane id.
      const m = begun && line.startsWith(mark) ? ended.exec(line) : null;
      if (m && Number(m[1]) === next) {
        screens.set(m[2]!, chunk.join("\n"));
        chunk = [];
        next++;
        continue;
      }
      chunk.push(line);
    }
    if (first) {
      // The prelude itself failed (no server): nothing after it ran.
      if (!begun) return { prelude: undefined, ok: false, screens };
      first = undefined;
    }
    // A failed command list stopped at target `next` (its capture or its marker): skip it.
    from = r.code === 0 ? end : next + 1;
  }
  return { prelude: head, ok: true, screens };
}

/**
 * `prelude` (e.g. a `list-panes -a`) and the screen of every pane of the
 * server, in one tmux process whose command list does not grow with the
 * panes: `run-shell -C` (tmux 3.2 and later) expands a format that loops over
 * every session, window and pane (the order `list-panes -a` lists them in)
 * into a capture of each pane followed by its marker line, and runs that in
 * the same client. The expansion happens in the same pass as the prelude, so
 * the screens are those of the panes it listed. Only pane ids go into the
 * generated commands (never a name or any text a pane controls), and the
 * marker carries a per-call nonce as in listAndCapture, so pane text can
 * neither forge a boundary nor inject a command.
 *
 * `complete` is false when a capture failed (a pane that vanished in between
 * ends the generated list there: the panes after it have no screen, for the
 * caller to capture by id) or when this tmux has no `run-shell -C` (then
 * nothing ran at all and `ok` is false too, as with no server).
 */
export async function listAndCaptureAll(socket: string, prelude: string[], onPrelude?: (prelude: string) => void): Promise<BatchCapture & { complete: boolean }> {
  const mark = `@@${randomHex(6)}@@`;
  const begin = beginLine(mark);
  // tmux sends the prelude's output before it runs the generated captures: the caller may use it meanwhile.
  let told = !onPrelude;
  let searched = 0;
  const watch = (soFar: string) => {
    if (told) return;
    // Each look starts where the last one could not have missed the marker's line.
    const at = preludeEnd(soFar, begin, Math.max(0, searched - begin.length - 2));
    searched = soFar.length;
    if (at < 0) return;
    told = true;
    onPrelude!(soFar.slice(0, Math.max(0, at - 1)));
  };
  const r = await tmuxAsync(socket, captureAllArgs(prelude, mark), undefined, onPrelude && watch);
  return splitCapturedAll(r, mark);
}

/**
 * listAndCaptureAll's command list for one marker: the prelude, the begin
 * marker, then a capture and a marker line for every pane (bench/startup.ts
 * times the same list from outside, to tell tmux's share of live from spex's).
 */
export function captureAllArgs(prelude: string[], mark: string): string[] {
  // `##{pane_id#}` is left by the loop's expansion as `#{pane_id}` for display to fill in (a
  // literal `%N` in its text would be read as a time format); the body has no top-level comma,
  // which would make the loop pick between two bodies.
  const each = `capture-pane -pJt #{pane_id} ; display -pt #{pane_id} "${mark}##{pane_id#}" ; `;
  return [...prelude, ";", "display-message", "-p", beginLine(mark), ";", "run-shell", "-C", `#{S:#{W:#{P:${each}}}}`];
}

/** The line a call's marker prints before the screens (the prelude ends just before it). */
function beginLine(mark: string): string {
  return `${mark}begin`;
}

/** Where the begin marker's line starts in tmux's output (the prelude ends just before it), or -1 before it has come. */
function preludeEnd(out: string, begin: string, from = 0): number {
  if (out.startsWith(`${begin}\n`)) return 0;
  const at = out.indexOf(`\n${begin}\n`, from);
  return at < 0 ? -1 : at + 1;
}

/** listAndCaptureAll's output cut into the prelude and each pane's screen, by the call's marker lines. */
function splitCapturedAll(r: TmuxResult, mark: string): BatchCapture & { complete: boolean } {
  const screens = new Map<string, string>();
  const begin = beginLine(mark);
  const out = r.stdout;
  const at = preludeEnd(out, begin);
  if (at < 0) return { prelude: undefined, ok: false, complete: false, screens };
  let from = at + begin.length + 1;
  // Each screen runs up to the next marker line; a marker is only ever a whole line from tmux.
  for (let hit = out.indexOf(mark, from); hit >= 0; hit = out.indexOf(mark, hit + 1)) {
    if (hit > 0 && out[hit - 1] !== "\n") continue;
    let end = out.indexOf("\n", hit);
    if (end < 0) end = out.length;
    const id = out.slice(hit + mark.length, end);
    if (!/^%\d+$/.test(id)) continue;
    screens.set(id, out.slice(from, Math.max(from, hit - 1)));
    from = end + 1;
    hit = end;
  }
  return { prelude: out.slice(0, Math.max(0, at - 1)), ok: true, complete: r.code === 0, screens };
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
