// The temporary folders a merge or a diff works in (a private git index, a
// throwaway worktree to rebase in). Each is named after the process that made
// it, `spex-<kind>-<pid>-<start>-<random>`, so a run killed half-way leaves a
// folder the next run can prove abandoned (its maker is dead: the pid names
// no process, or another one) and remove. Folders of a live maker, of another
// user, or not named this way are never touched.
import { lstatSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bootId, ownerAlive, selfIdentity } from "../proc";

export type ScratchKind = "index" | "rebase";

const NAME = /^spex-(index|rebase)-(\d+)-(@?\d+)-[A-Za-z0-9]{6}$/;

/** Test hook: SIGKILL ourselves at a named step (DESIGN.md §10 fault injection). */
export function crashpoint(step: string): void {
  if (process.env.SPEX_TEST_CRASH_AT === step) process.kill(process.pid, "SIGKILL");
}

/** A new folder of this kind, named after this process. */
export function makeScratch(kind: ScratchKind): string {
  const me = selfIdentity();
  // Without a start identity a folder could never be proved abandoned: it gets none in its name, and no sweep matches it.
  const owner = /^@?\d+$/.test(me.start) ? `${me.pid}-${me.start}-` : "";
  return mkdtempSync(join(tmpdir(), `spex-${kind}-${owner}`));
}

/**
 * Remove the folders of this kind whose maker is dead; their paths. A rebase
 * folder held a worktree the repository still lists: the caller prunes it.
 */
export function sweepScratch(kind: ScratchKind): string[] {
  const dir = tmpdir();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const uid = process.getuid?.();
  const boot = bootId();
  const removed: string[] = [];
  for (const name of names) {
    const m = NAME.exec(name);
    if (!m || m[1] !== kind) continue;
    const pid = Number(m[2]);
    if (pid === process.pid || ownerAlive({ pid, start: m[3]!, boot })) continue;
    const path = join(dir, name);
    try {
      const st = lstatSync(path);
      if (!st.isDirectory() || st.isSymbolicLink() || (uid !== undefined && st.uid !== uid)) continue;
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // Gone meanwhile (another run swept it), or not ours to remove: left as it is.
    }
  }
  return removed;
}
