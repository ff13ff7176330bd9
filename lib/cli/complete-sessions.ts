// The sessions a Tab offers (`spex session show <Tab>`): each one's short id
// and name, from one listing of the project's sessions folder and one of its
// listing index (lib/store/listing-index.ts), reading a record only for a
// session whose name the index cannot vouch for (no entry, or two while a
// rename is under way). Every Tab is a process start, so this loads node:fs
// and the key hash only: the store is found the way lib/store finds it (the
// main checkout by lib/git/main-root, the key of its real path, SPEX_HOME
// checked to be the user's own), without lib/store, node:path or the record
// reader, and it writes nothing. Whatever is not the plain case
// (SPEX_PROJECT_ROOT set, a store still to adopt, an error) is left to
// lib/store: lib/cli/complete-read.ts asks it then, so the answer is the same
// either way.
import { constants, lstatSync, readFileSync, readdirSync, realpathSync, statSync } from "node:fs";
import { findCheckout, resolveLexically } from "../git/main-root";
import { isSessionId } from "../store/ids";
import { listingFiles, readNameEntries } from "../store/listing-index";
import { projectKey } from "../store/key-name";

/** Where the sessions are: a folder, none at all (no usable SPEX_HOME), or `unsure` (ask lib/store). */
export type SessionsLookup = { sessionsDir: string } | "none" | "unsure";

function realOrSelf(path: string, native = false): string {
  try {
    return native ? realpathSync.native(path) : realpathSync(path);
  } catch {
    return path;
  }
}

/** The store's sessions folder for the folder given, as lib/store's currentProject() finds it. */
export function lookupSessions(cwd = process.cwd(), env: NodeJS.ProcessEnv = process.env): SessionsLookup {
  if (env.SPEX_PROJECT_ROOT) return "unsure";
  let root: string | undefined;
  try {
    root = findCheckout(cwd)?.mainRoot;
  } catch {
    return "unsure"; // a .git that cannot be read: lib/store says what is wrong
  }
  if (!root) return "unsure"; // outside a checkout lib/store says so (and completion offers nothing)
  // lib/store's default is os.homedir()'s .spex, and homedir() is $HOME when that is set (node:os is not loaded for it).
  if (!env.SPEX_HOME && !env.HOME?.startsWith("/")) return "unsure";
  // lib/store refuses a SPEX_HOME that is not absolute.
  if (env.SPEX_HOME && !env.SPEX_HOME.startsWith("/")) return "unsure";
  const home = resolveLexically(process.cwd(), env.SPEX_HOME || `${env.HOME}/.spex`);
  try {
    // lib/store/private's check, without its mkdir and chmod: a home another user may write offers nothing.
    const st = statSync(home, { throwIfNoEntry: false });
    const uid = process.getuid?.();
    if (!st || !st.isDirectory() || (uid !== undefined && st.uid !== uid) || st.mode & 0o022) return "none";
    const dir = `${home}/projects/${projectKey(realOrSelf(root, true))}`;
    // No store under the key yet: lib/store adopts one made under the old key, if there is one.
    if (!lstatSync(dir, { throwIfNoEntry: false })) return "unsure";
    return { sessionsDir: `${dir}/sessions` };
  } catch {
    return "unsure";
  }
}

/**
 * A name worth offering: one line, nothing a terminal would act on. Blanks and
 * shell syntax are fine: the completion scripts quote every candidate.
 */
const offerable = (name: unknown): name is string => typeof name === "string" && name !== "" && !/[\u0000-\u001f\u007f-\u009f]/u.test(name);

// O_NONBLOCK: a fifo planted as session.json reads empty (a corrupt record) instead of hanging the Tab.
// Node and Bun take numeric open flags here as openSync does; the typings admit only the string names.
const READ = { encoding: "utf8", flag: (constants.O_RDONLY | constants.O_NONBLOCK) as unknown as string } as const;

/** Each session's short id, and its name when it has one. */
export function sessionWords(sessionsDir: string): string[] {
  const out: string[] = [];
  let ids: string[];
  try {
    ids = readdirSync(sessionsDir);
  } catch {
    return [];
  }
  // The listing index beside the sessions folder; one that cannot be listed vouches for nothing.
  const names = readNameEntries(listingFiles(sessionsDir.slice(0, sessionsDir.lastIndexOf("/"))));
  for (const id of ids) {
    if (!isSessionId(id)) continue;
    // The sessions folder says which sessions there are; the index, what each is called.
    const known = names.get(id);
    if (typeof known === "string") {
      out.push(id.slice(0, 8));
      if (offerable(known)) out.push(known);
      continue;
    }
    let text: string;
    try {
      text = readFileSync(`${sessionsDir}/${id}/session.json`, READ);
    } catch (e) {
      // No record (yet, or any more): no session to offer; one the system refuses to read is still a session.
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") out.push(id.slice(0, 8));
      continue;
    }
    // A UUID's first 8 characters are hex: the short id.
    out.push(id.slice(0, 8));
    const name = nameOf(text);
    if (offerable(name)) out.push(name);
  }
  return out;
}

const NAME_LINE = '\n  "name": ';

/**
 * The record's name. lib/record writes a record as JSON indented by two
 * (codec.ts), so a top-level field is a line of its own at that indent: in
 * such a text the one `"name"` line is read alone, a few µs where parsing the
 * record takes several times that (200 of them per Tab). Any other text
 * (written by hand, corrupt) is parsed whole; one that does not parse has no name.
 */
function nameOf(text: string): unknown {
  const at = text.indexOf(NAME_LINE);
  if (at > 0 && text.startsWith('{\n  "') && text.endsWith("\n}\n") && text.indexOf(NAME_LINE, at + 1) < 0) {
    const end = text.indexOf("\n", at + NAME_LINE.length);
    const value = text.slice(at + NAME_LINE.length, text[end - 1] === "," ? end - 1 : end);
    try {
      return JSON.parse(value);
    } catch {
      // not a value on one line: parse the whole text below
    }
  }
  try {
    return (JSON.parse(text) as { name?: unknown }).name;
  } catch {
    return undefined; // a corrupt record still has its id
  }
}
