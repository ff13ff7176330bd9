// Two spellings of one folder (a symlinked SPEX_HOME, a worktree path git
// printed through its real path) compare equal.
import { realpathSync } from "node:fs";

export function samePath(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  if (a === b) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}
