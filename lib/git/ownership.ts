// git refuses a repository another user owns ("detected dubious ownership",
// its safe.directory check): a repository mounted into a container, one
// reached as root or over sudo. Every git call then fails with that text; it
// is the user's situation, not a bug of spex's, and says what to do. Kept
// to the error type and the shell quoting: the CLI's error path loads it.
import { SpexError } from "../errors";
import { shellWord } from "../tmux/quote";

const DUBIOUS = /detected dubious ownership in repository at '([^'\n]+)'/;

/** The refusal git's message amounts to, when it is the safe.directory one. */
export function notOwnedRefusal(gitText: string): SpexError | undefined {
  const m = DUBIOUS.exec(gitText);
  if (!m) return undefined;
  const repo = m[1]!;
  return new SpexError("repo_dubious_ownership", `git refuses to work in ${repo}: it belongs to another user than the one running spex (git's safe.directory check)`, {
    hint: `run spex as the user who owns it, or, if you trust that repository, tell git so: \`git config --global --add safe.directory ${shellWord(repo)}\``,
    details: { repository: repo },
  });
}
