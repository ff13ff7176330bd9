// Git in a linked worktree, pinned to the git folder the main repository
// records for it (<common dir>/worktrees/<name>). The worktree's own `.git`
// file is the agent's to write: a repository it points at (one the agent made
// inside the worktree) would have git run commands from that repository's
// config — core.fsmonitor at every status, a clean filter at every add — as
// whoever runs spex, outside every permission the agent CLI enforces.
import { readFileSync, readdirSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { SpexError } from "../errors";
import { gitSyncOrThrow } from "./sync";

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

const pinned = new Map<string, Record<string, string>>();

/**
 * The environment that makes git use `worktree` with its recorded git folder
 * (GIT_DIR, GIT_WORK_TREE); {} for the main checkout itself. A worktree the
 * main repository does not record is refused: spex runs no git there.
 */
export function worktreeGitEnv(root: string, worktree: string): Record<string, string> {
  const key = `${root}\u0000${worktree}`;
  const known = pinned.get(key);
  if (known) return known;
  const want = real(worktree);
  if (want === real(root)) return {};
  const common = resolve(root, gitSyncOrThrow(root, ["rev-parse", "--git-common-dir"], "finding the repository's git folder").trim());
  const dirs = join(common, "worktrees");
  let names: string[] = [];
  try {
    names = readdirSync(dirs);
  } catch {
    // no linked worktree at all
  }
  for (const name of names) {
    const gitDir = join(dirs, name);
    let recorded: string;
    try {
      recorded = readFileSync(join(gitDir, "gitdir"), "utf8").trim();
    } catch {
      continue;
    }
    // `gitdir` names the worktree's `.git` file (relative to this folder when git wrote it so).
    const dotGit = isAbsolute(recorded) ? recorded : resolve(gitDir, recorded);
    if (real(dirname(dotGit)) !== want) continue;
    const env = { GIT_DIR: gitDir, GIT_WORK_TREE: want };
    pinned.set(key, env);
    return env;
  }
  throw new SpexError("worktree_unrecorded", `${worktree} is not a worktree the repository ${root} records; spex runs no git there`, {
    hint: "`git worktree list` shows the worktrees git knows; `git worktree repair` fixes a moved one",
    details: { worktree },
  });
}
