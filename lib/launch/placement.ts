// Where in its worktree an agent starts (issue 13 item 5): the record's
// `directory`, relative to the worktree, from `new --directory` or the group's
// effective directory. The worktree's content comes from an untrusted base, so
// the folder is reached (and made when missing) without following a link: a
// tracked link that would carry the agent out of its worktree is refused.
import { SpexError } from "../errors";
import { mkdirNoFollow, relativeInside } from "../nofollow";

/**
 * A requested start directory as stored on the record: relative to the
 * worktree (an absolute path inside the main checkout is taken relative to it,
 * the same folder in every worktree); "" for the worktree itself. Lexical, so
 * it refuses before anything is made.
 */
export function checkStartDirectory(dir: string, mainRoot: string): string {
  const rel = relativeInside(mainRoot, dir);
  if (rel === undefined) {
    throw new SpexError("unsafe_path", `the directory "${dir}" leaves the session's worktree`, {
      hint: "give a folder inside the repository, relative to its top (e.g. services/api)",
      details: { path: dir },
      httpStatus: 400,
    });
  }
  return rel;
}

/** The absolute folder the agent starts in, made when missing; `unsafe_path` for a link or a file on the way. */
export function startFolder(worktree: string, directory: string | undefined): string {
  return directory ? mkdirNoFollow(worktree, directory) : worktree;
}
