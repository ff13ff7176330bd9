// A terminal's record: one small JSON file per terminal under the project's
// store (terminals/<id>.json). Like a session record it has one writer (fixed
// key order, atomic replace, never through a link) and three readings:
// absent, corrupt (naming the file and why) and ok. A terminal id is a UUID,
// checked before it becomes a path.
import { mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { SpexError, errnoCode } from "../errors";
import { fsyncDir, lstatOrAbsent, readFileNoFollow, refuseLinks, writeFileNoFollow } from "../nofollow";
import { faultPoint } from "../faults";
import { type ProjectStore, isSessionId } from "../store";
import { randomHex } from "../hash";
import { shellWord } from "../tmux/quote";

export interface TerminalRecord {
  terminal_id: string;
  name: string;
  /** The session it sits beside (its worktree, closed with it); "" for one in the main checkout. */
  session: string;
  project_root: string;
  /** The folder it started in. */
  directory: string;
  /** The program it runs; empty for the user's login shell. */
  command: string[];
  tmux_socket: string;
  tmux_session: string;
  createdAt: string;
}

const FIELDS: readonly (keyof TerminalRecord)[] = [
  "terminal_id",
  "name",
  "session",
  "project_root",
  "directory",
  "command",
  "tmux_socket",
  "tmux_session",
  "createdAt",
];

export type TerminalReading =
  | { kind: "absent"; id: string; file: string }
  | { kind: "corrupt"; id: string; file: string; error: string }
  | { kind: "ok"; id: string; file: string; record: TerminalRecord };

/** A terminal id has the shape of a session id: a canonical lower-case UUID. */
export const isTerminalId = isSessionId;

function requireTerminalId(id: string): string {
  if (isTerminalId(id)) return id;
  throw new SpexError("terminal_not_found", `${JSON.stringify(id.slice(0, 80))} is not a terminal id`, {
    hint: "a terminal id is a UUID as `spex terminal ls` shows it",
    httpStatus: 404,
  });
}

export function terminalsDir(store: ProjectStore): string {
  return join(store.dir, "terminals");
}

const fileName = (id: string) => `${requireTerminalId(id)}.json`;

export function terminalFile(store: ProjectStore, id: string): string {
  return join(terminalsDir(store), fileName(id));
}

/** The one place terminal record text is composed. */
export function serializeTerminal(record: TerminalRecord): string {
  const ordered: Record<string, unknown> = {};
  for (const key of FIELDS) ordered[key] = record[key];
  return JSON.stringify(ordered, null, 2) + "\n";
}

/** Parse record text for the terminal `id`; a string says why it is corrupt. */
export function parseTerminal(text: string, id: string): TerminalRecord | string {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return "the record is not a JSON object";
  const obj = raw as Record<string, unknown>;
  for (const key of FIELDS) {
    const value = obj[key];
    if (key === "command") {
      if (!Array.isArray(value) || value.some((a) => typeof a !== "string")) return "field command is not a list of strings";
    } else if (typeof value !== "string") return `field ${key} is not a string`;
  }
  if (obj.terminal_id !== id) return `its terminal_id ${JSON.stringify(obj.terminal_id)} is not its file's id ${id}`;
  if (obj.session !== "" && !isSessionId(obj.session as string)) return `its session ${JSON.stringify(obj.session)} is not a session id`;
  if (obj.tmux_session === "") return "field tmux_session is empty";
  const record = {} as Record<string, unknown>;
  for (const key of FIELDS) record[key] = obj[key];
  return record as unknown as TerminalRecord;
}

/** Absent, corrupt or ok; a link where the file or its folder should be reads corrupt. */
export function readTerminal(store: ProjectStore, id: string): TerminalReading {
  const file = terminalFile(store, id);
  let text: string | undefined;
  try {
    text = readFileNoFollow(store.dir, `terminals/${fileName(id)}`);
  } catch (e) {
    if (e instanceof SpexError && e.code === "unsafe_path") return { kind: "corrupt", id, file, error: e.message };
    throw e;
  }
  if (text === undefined) return { kind: "absent", id, file };
  const parsed = parseTerminal(text, id);
  return typeof parsed === "string" ? { kind: "corrupt", id, file, error: parsed } : { kind: "ok", id, file, record: parsed };
}

/** Land a terminal record by atomic replace, never through a link; bytes that would read back corrupt are refused. */
export function writeTerminal(store: ProjectStore, record: TerminalRecord): void {
  const text = serializeTerminal(record);
  const check = parseTerminal(text, record.terminal_id);
  if (typeof check === "string") throw new SpexError("internal_error", `refusing to write a terminal record that would read corrupt: ${check}`);
  // The project folder is the trusted root; from terminals/ down nothing is written through a link.
  mkdirSync(store.dir, { recursive: true });
  writeFileNoFollow(store.dir, `terminals/${fileName(record.terminal_id)}`, text, { mode: 0o644, forceMode: true, durable: true });
}

/** Ids of every terminal record file; a name that is not `<uuid>.json` is no terminal. */
export function listTerminalIds(store: ProjectStore): string[] {
  let names: string[];
  try {
    names = readdirSync(terminalsDir(store));
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return [];
    throw e;
  }
  return names.flatMap((n) => (n.endsWith(".json") && isTerminalId(n.slice(0, -5)) ? [n.slice(0, -5)] : [])).sort();
}

/** Whether `selector` (two characters or more) begins terminal `id`, with or without its dashes. */
export function namesIdPrefix(id: string, selector: string): boolean {
  return selector.length >= 2 && (id.startsWith(selector) || id.replace(/-/g, "").startsWith(selector));
}

/**
 * A folder (or a device, a socket) where a terminal's record file belongs:
 * spex writes records as files, so it is not spex's to move or delete. A link
 * there is only a name, and a close removes it as any corrupt record.
 */
export function notARecordFile(file: string, id: string): SpexError | undefined {
  let st;
  try {
    st = lstatOrAbsent(file);
  } catch {
    return undefined; // cannot be looked at (a file where terminals/ belongs): what reads or moves it says why
  }
  if (!st || st.isFile() || st.isSymbolicLink()) return undefined;
  const what = st.isDirectory() ? "a folder" : "something that is not a file";
  return new SpexError("terminal_not_file", `${what} stands where terminal ${id.slice(0, 8)}'s record belongs (${file}); spex writes terminal records as files, so it is not one spex wrote and was left alone; nothing was changed`, {
    hint: `look at it with \`ls -la ${shellWord(file)}\` and move it away if it is yours; \`spex terminal ls\` then no longer lists it`,
    details: { file },
  });
}

/**
 * Remove a terminal's record: renamed out of sight first (only one of two
 * racing closes wins the rename), then deleted. False when it was already gone.
 */
export function removeTerminalRecord(store: ProjectStore, id: string): boolean {
  const gone = join(terminalsDir(store), `.closed-${fileName(id)}-${randomHex(4)}`);
  // The rename happens inside terminals/: that folder must be the store's own, not a link elsewhere.
  if (refuseLinks(store.dir, "terminals", "folder") === 0) return false;
  const planted = notARecordFile(terminalFile(store, id), id);
  if (planted) throw planted;
  try {
    renameSync(terminalFile(store, id), gone);
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return false;
    throw e;
  }
  fsyncDir(terminalsDir(store));
  faultPoint("terminal-record-hidden");
  rmSync(gone, { force: true });
  return true;
}

const HIDDEN = /^\.closed-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.json-[0-9a-f]+$/;

export interface InterruptedTerminalClose {
  id: string;
  /** The hidden file. */
  path: string;
  /** `unfinished`: its close was killed after the rename; `not_ours`: a record of that id is still there, or it is a folder. */
  state: "unfinished" | "not_ours";
}

/**
 * The hidden `.closed-<id>.json-<hex>` files a terminal close leaves when it is
 * killed between the rename and the delete. Its tmux session was ended before
 * the rename, so the file is all that is left of it.
 */
export function interruptedTerminalCloses(store: ProjectStore): InterruptedTerminalClose[] {
  // Only the store's own terminals/ folder, never one linked elsewhere.
  if (lstatOrAbsent(terminalsDir(store))?.isDirectory() !== true) return [];
  let names: string[];
  try {
    names = readdirSync(terminalsDir(store));
  } catch (e) {
    if (errnoCode(e) === "ENOENT" || errnoCode(e) === "ENOTDIR") return [];
    throw e;
  }
  const out: InterruptedTerminalClose[] = [];
  for (const name of names.sort()) {
    const id = HIDDEN.exec(name)?.[1];
    if (!id) continue;
    const path = join(terminalsDir(store), name);
    const st = lstatOrAbsent(path);
    if (!st) continue;
    // A close renames a record file (or a link read as a corrupt record); a folder, or one beside a record of its id, is no close's.
    const ours = !st.isDirectory() && lstatOrAbsent(terminalFile(store, id)) === undefined;
    out.push({ id, path, state: ours ? "unfinished" : "not_ours" });
  }
  return out;
}

/**
 * Delete what terminal closes killed after their rename left; the ids finished.
 * Never fails its caller (a close that did its own work): what cannot be read
 * or removed stays for doctor to list.
 */
export function finishInterruptedTerminalCloses(store: ProjectStore): string[] {
  const finished: string[] = [];
  let left: InterruptedTerminalClose[];
  try {
    left = interruptedTerminalCloses(store);
  } catch {
    return finished;
  }
  for (const l of left) {
    if (l.state !== "unfinished") continue;
    try {
      // Not recursive: a file or a link, removed itself (a link is never followed).
      rmSync(l.path, { force: true });
      finished.push(l.id);
    } catch {
      // left for doctor to list
    }
  }
  return finished;
}
