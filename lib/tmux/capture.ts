// Screens of many panes in one tmux process: a capture and a marker line per
// pane, cut apart by a per-call nonce, and live's one call that lists every
// pane of a server and captures each (lib/live/discover).
import { randomHex } from "../hash";
import { type TmuxResult, baseArgs, tmuxAsync, tmuxBatch, tmuxSync } from "./run";

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
  const mark = callMark();
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
export async function listAndCaptureAll(socket: string, prelude: string[], onPrelude?: (prelude: string) => void, started?: CaptureAllCall): Promise<BatchCapture & { complete: boolean }> {
  const call = started ?? startCaptureAll(socket, prelude);
  const begin = beginLine(call.mark);
  // tmux sends the prelude's output before it runs the generated captures: the caller may use it meanwhile.
  let told = false;
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
  if (onPrelude) call.listen(watch);
  return splitCapturedAll(await call.result, call.mark);
}

/** A listAndCaptureAll call under way, which may have been started before anyone read it (lib/live/early.ts). */
export interface CaptureAllCall {
  readonly mark: string;
  readonly result: Promise<TmuxResult>;
  /** Hear the output so far at once (when some came already) and again each time more arrives. */
  listen(onOutput: (soFar: string) => void): void;
  /** End the tmux client: nobody will read this call. */
  cancel(): void;
}

/** Start listAndCaptureAll's tmux process now; its output is kept for whoever listens later. */
export function startCaptureAll(socket: string, prelude: string[]): CaptureAllCall {
  const mark = callMark();
  const abort = new AbortController();
  let soFar = "";
  let listener: ((soFar: string) => void) | undefined;
  const result = tmuxAsync(
    socket,
    captureAllArgs(prelude, mark),
    undefined,
    (text) => {
      soFar = text;
      listener?.(text);
    },
    abort.signal,
  );
  // A call nobody awaits yet (tmux missing, say) must not end the process as an unhandled rejection; its reader sees the error.
  result.catch(() => undefined);
  return {
    mark,
    result,
    listen(onOutput) {
      listener = onOutput;
      if (soFar) onOutput(soFar);
    },
    cancel: () => abort.abort(),
  };
}

/**
 * listAndCaptureAll's command list for one marker: the prelude, the begin
 * marker, then a capture and a marker line for every pane (bench/fleets.ts
 * builds the same list for the bench to time from outside, to tell tmux's
 * share of live from spex's).
 */
export function captureAllArgs(prelude: string[], mark: string): string[] {
  // `##{pane_id#}` is left by the loop's expansion as `#{pane_id}` for display to fill in (a
  // literal `%N` in its text would be read as a time format); the body has no top-level comma,
  // which would make the loop pick between two bodies.
  const each = `capture-pane -pJt #{pane_id} ; display -pt #{pane_id} "${mark}##{pane_id#}" ; `;
  return [...prelude, ";", "display-message", "-p", beginLine(mark), ";", "run-shell", "-C", `#{S:#{W:#{P:${each}}}}`];
}

/** A marker of one call: a nonce no pane's text can know, so no screen can forge a boundary. */
function callMark(): string {
  return `@@${randomHex(6)}@@`;
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
