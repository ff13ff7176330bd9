// The writer's side of the listing index (lib/store/listing-index.ts). Its
// rules are what make an entry safe to trust:
// - Name: every record write keeps its session's name entry. The new entry is
//   made before the record that carries the name lands, the old ones go only
//   after, so a kill at any step leaves two entries, which a reader takes as
//   "read the record". A first write goes the other way (record, then entry):
//   no entry ever names a record not yet written.
// - Side files: the flag `<id>+<file>` is made before the one writer writes
//   that file. Before a session's first name entry is made, the flags of the
//   side files it already has are made too (a store from before the index),
//   so a session with a name entry has every flag it needs.
// - Preview: written once, after the prompt it is taken from (a prompt never changes).
import { closeSync, constants, openSync, readdirSync, unlinkSync } from "node:fs";
import { basename, dirname } from "node:path";
import { errnoCode } from "../errors";
import { faultPoint } from "../faults";
import { fsyncDir, lstatOrAbsent, mkdirNoFollow, refuseLinks } from "../nofollow";
import { FLAGGED_SIDE_FILES, type FlaggedSideFile, LISTING_FOLDER, type ListedSession, isEntryOf, isNameEntryOf, listingFiles, nameEntry, previewEntry, readListingEntries, sideFileEntry } from "../store/listing-index";

export interface NameEntryPlan {
  project: string;
  id: string;
  entry: string;
  /** The entry is not there yet: make it, and clear the session's other name entries once the record has landed. */
  fresh: boolean;
  /** No record yet: the entry follows the record instead of preceding it. */
  first: boolean;
}

/** The project folder of a file in sessions/<id>/, or undefined for a file outside a project's sessions folder. */
function projectOf(sessionFile: string): string | undefined {
  const sessions = dirname(dirname(sessionFile));
  return basename(sessions) === "sessions" ? dirname(sessions) : undefined;
}

/** What a write of a record carrying `name` to `file` (sessions/<id>/session.json) must do to the index. */
export function planNameEntry(file: string, id: string, name: string): NameEntryPlan | undefined {
  const project = projectOf(file);
  if (project === undefined) return undefined;
  const entry = nameEntry(id, name);
  // One lstat per record write: most writes leave the name as it is, and its entry is already there.
  if (lstatOrAbsent(`${project}/${LISTING_FOLDER}/${entry}`)) return { project, id, entry, fresh: false, first: false };
  return { project, id, entry, fresh: true, first: lstatOrAbsent(file) === undefined };
}

/** Before the record lands: a new name's entry, so the session has two entries until the old one goes. */
export function nameEntryBeforeRecord(plan: NameEntryPlan | undefined): void {
  if (!plan?.fresh || plan.first) return;
  makeNameEntry(plan);
  faultPoint("name-entry-made");
}

/** After the record landed: the first write's entry, then the session's other name entries cleared. */
export function nameEntryAfterRecord(plan: NameEntryPlan | undefined): void {
  if (!plan?.fresh) return;
  faultPoint("name-record-landed");
  if (plan.first) makeNameEntry(plan);
  // Best effort: an entry left behind makes two, which readers take as "read the record".
  try {
    dropEntries(plan.project, (file) => file !== plan.entry && isNameEntryOf(file, plan.id));
  } catch {
    // the next name change clears it
  }
}

function makeNameEntry(plan: NameEntryPlan): void {
  // The flags first: a session with a name entry has a flag for each side file it has.
  for (const file of FLAGGED_SIDE_FILES) {
    if (lstatOrAbsent(`${plan.project}/sessions/${plan.id}/${file}`) !== undefined) makeEntry(plan.project, sideFileEntry(plan.id, file));
  }
  makeEntry(plan.project, plan.entry);
}

/** Before the one writer writes a side file (`sessions/<id>/usage.json`, …): its flag, so no listing passes the file over. */
export function flagSideFile(project: string, id: string, file: FlaggedSideFile): void {
  const entry = sideFileEntry(id, file);
  if (!lstatOrAbsent(`${project}/${LISTING_FOLDER}/${entry}`)) makeEntry(project, entry);
}

/** After a new session's prompt is written: its preview, as a row would take it from the prompt's first bytes. */
export function notePreview(project: string, id: string, preview: string): void {
  const entry = previewEntry(id, preview);
  if (entry !== undefined) makeEntry(project, entry);
}

/** Every entry of a session, before its record goes away while its folder may stay (quarantine, a create rolled back) or with it (close). */
export function dropListingEntries(project: string, id: string): void {
  dropEntries(project, (file) => isEntryOf(file, id));
}

/** What the index says of each session, from one listing of its folder (listingFiles: never through a link). */
export function readListingIndex(project: string): Map<string, ListedSession> {
  return readListingEntries(listingFiles(project));
}

function makeEntry(project: string, entry: string): void {
  const folder = mkdirNoFollow(project, LISTING_FOLDER);
  refuseLinks(project, `${LISTING_FOLDER}/${entry}`);
  closeSync(openSync(`${folder}/${entry}`, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW, 0o644));
  // Durable before what relies on it lands: after a power cut an old name entry alone would name the old name.
  fsyncDir(folder);
}

function dropEntries(project: string, which: (file: string) => boolean): void {
  const folder = `${project}/${LISTING_FOLDER}`;
  // A link (or anything but a folder) planted there holds nothing of ours: no reader trusts it, so nothing needs removing.
  if (!lstatOrAbsent(folder)?.isDirectory()) return;
  let files: string[];
  try {
    files = readdirSync(folder);
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return;
    throw e;
  }
  for (const file of files) {
    if (!which(file)) continue;
    try {
      unlinkSync(`${project}/${LISTING_FOLDER}/${file}`);
    } catch (e) {
      if (errnoCode(e) !== "ENOENT") throw e;
    }
  }
}
