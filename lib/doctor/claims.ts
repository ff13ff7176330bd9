// What something unprovable may own: a corrupt record names nothing for sure,
// so a worktree folder or tmux session its bytes name, or that carries its
// short id the way spex names a session's things (`<slug>-<id4>` or, when that
// was held, `<slug>-<id12>`), may be its own. doctor never advises removing
// such a thing; it says to inspect it.
import { basename, sep } from "node:path";
import { shortId } from "../naming";
import type { RecordReading } from "../record";
import { residueNames } from "../teardown/residues";

export interface Claim {
  /** Why the thing may be someone's, for the person reading the advice. */
  reason: string;
  worktree?: string;
  tmuxSession?: string;
  /** Name suffixes (`-<id4>`, `-<id12>`) this claim's session gives its things. */
  suffixes: string[];
}

/** One claim per corrupt record, from what its bytes name and its id. */
export function corruptClaims(readings: RecordReading[]): Claim[] {
  const claims: Claim[] = [];
  for (const r of readings) {
    if (r.kind !== "corrupt") continue;
    const names = residueNames(r.id, r.file);
    claims.push({
      reason: `session ${r.id} may own it: its record is corrupt (${r.error})`,
      worktree: names.worktree_path,
      tmuxSession: names.tmux_session,
      suffixes: [`-${shortId(r.id, 4)}`, `-${shortId(r.id, 12)}`],
    });
  }
  return claims;
}

const within = (path: string, folder: string) => path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);

/** The claim on a folder under the worktree root: it is, holds or lies in what a claim names, or bears its suffix. */
export function claimOnFolder(claims: Claim[], path: string): Claim | undefined {
  return claims.find((c) => (c.worktree && (within(c.worktree, path) || within(path, c.worktree))) || c.suffixes.some((s) => basename(path).endsWith(s)));
}

/** The claim on a tmux session name. */
export function claimOnTmux(claims: Claim[], name: string): Claim | undefined {
  return claims.find((c) => c.tmuxSession === name || c.suffixes.some((s) => name.endsWith(s)));
}
