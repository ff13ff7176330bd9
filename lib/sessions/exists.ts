// Whether each session's worktree is still there (a record whose worktree is
// gone reads `retired`), asked for every record of a listing. The worktrees
// of a project share a folder (.worktrees/ by default), so past a few
// questions about one folder it is listed once and answered from the listing.
import { existsSync, readdirSync } from "node:fs";

/** Questions about one folder asked of the file system, one by one, before it is listed. */
const ONE_BY_ONE = 16;

// Only a plain absolute path splits into its folder and name as the file system would resolve it.
const PLAIN_ABSOLUTE = /^(\/[^/]+)+$/;
const DOTTED = /\/\.\.?(\/|$)/;

interface FolderState {
  asked: number;
  /** Something in it was found: the folder can be searched, so its listing answers as a stat would. */
  searchable: boolean;
  /** Name → whether it is a symbolic link (a link is still asked of the file system: it may dangle). */
  names?: Map<string, boolean>;
}

/** existsSync for many paths in few folders: the same answers, one listing in place of a stat per path. */
export function sharedFolderExists(): (path: string) => boolean {
  const folders = new Map<string, FolderState>();
  return (path) => {
    if (!PLAIN_ABSOLUTE.test(path) || DOTTED.test(path)) return existsSync(path);
    const cut = path.lastIndexOf("/");
    const folder = path.slice(0, cut);
    let state = folders.get(folder);
    if (!state) folders.set(folder, (state = { asked: 0, searchable: false }));
    if (!state.names && state.asked >= ONE_BY_ONE && state.searchable) {
      try {
        state.names = new Map(readdirSync(folder, { withFileTypes: true }).map((e) => [e.name, e.isSymbolicLink()]));
      } catch {
        state.asked = -Infinity; // cannot be listed: ask one by one from now on
      }
    }
    if (state.names) {
      const link = state.names.get(path.slice(cut + 1));
      return link === undefined ? false : link ? existsSync(path) : true;
    }
    state.asked++;
    const found = existsSync(path);
    if (found) state.searchable = true;
    return found;
  };
}
