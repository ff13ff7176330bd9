// The worktree, branch and tmux names of a new session, chosen under the
// project lock: a name something already holds (another create, the user's own
// worktree or folder, a tmux session) is passed over for a longer suffix, or
// refused with name_collision. It is never taken, so never rolled back.
import { basename, join } from "node:path";
import { SpexError } from "../errors";
import { probeRefs } from "../git";
import { shortId } from "../naming";
import { lstatOrAbsent } from "../nofollow";
import { hasSession } from "../tmux";

export interface SessionNames {
  worktree: string;
  branch: string;
  tmuxSession: string;
}

/** The suffix lengths tried in turn: the short id first, a longer one when that is held. */
const SUFFIXES = [4, 12];

export function namesFor(naming: { worktreeRoot: string; branchPrefix: string; slug: string }, suffix: string): SessionNames {
  const worktree = join(naming.worktreeRoot, `${naming.slug}-${suffix}`);
  return { worktree, branch: `${naming.branchPrefix}${naming.slug}-${suffix}`, tmuxSession: basename(worktree) };
}

/**
 * The first free names for session `id`, with the commit of `mainRef` and the
 * hooks folder git uses (asked in the same git call). `tmuxSocket` is given
 * when the session will launch.
 */
export async function chooseFreeNames(
  mainRoot: string,
  naming: { worktreeRoot: string; branchPrefix: string; slug: string },
  id: string,
  mainRef: string,
  tmuxSocket?: string,
): Promise<{ names: SessionNames; mainCommit: string | undefined; hooksDir: string }> {
  const candidates = SUFFIXES.map((n) => namesFor(naming, shortId(id, n)));
  const { existing, mainCommit, hooksDir } = await probeRefs(mainRoot, mainRef, candidates.map((c) => `refs/heads/${c.branch}`));
  const held: string[] = [];
  for (const c of candidates) {
    const taken = [
      lstatOrAbsent(c.worktree) ? c.worktree : "",
      existing.has(`refs/heads/${c.branch}`) ? `branch ${c.branch}` : "",
      tmuxSocket && hasSession(tmuxSocket, c.tmuxSession) ? `tmux session ${c.tmuxSession}` : "",
    ].filter(Boolean);
    if (taken.length === 0) return { names: c, mainCommit, hooksDir };
    held.push(...taken);
  }
  throw new SpexError("name_collision", `every name this session could take is already held: ${held.join(", ")}`, {
    hint: "nothing was made or removed; close the session that holds them, or rename your own worktree/branch, then retry",
  });
}
