// Human text for diff and merge results (the commands print it; --json prints the objects).
import type { SessionDiff } from "./diff";
import type { MergeResult } from "./merge";

const short = (sha: string): string => sha.slice(0, 10);

export function describeMerge(r: MergeResult): string {
  const lines: string[] = [];
  if (r.workCommit) lines.push(`committed the uncommitted work of ${r.label} as ${short(r.workCommit)} on ${r.branch}`);
  if (r.alreadyLanded?.landing === "none") lines.push(`${r.branch} is already on ${r.into} (found there at ${r.alreadyLanded.at}): nothing changed`);
  else if (r.alreadyLanded) lines.push(`${r.branch} already landed on ${r.into} (${r.alreadyLanded.landing === "merge-commit" ? "merge commit" : r.alreadyLanded.landing} at ${r.alreadyLanded.at}, ${short(r.alreadyLanded.after)}): nothing changed`);
  else if (r.landing === "none") lines.push(`${r.branch} is already on ${r.into}: nothing to merge`);
  else {
    const how = r.landing === "merge-commit" ? "merge commit" : r.landing;
    lines.push(`merged ${r.branch} into ${r.into} (${how}, ${r.commits} commit${r.commits === 1 ? "" : "s"}): ${short(r.before)}..${short(r.after)}`);
    if (r.checkout) lines.push(`the checkout at ${r.checkout} moved with it`);
  }
  if (r.closed) lines.push(`closed session ${r.id.slice(0, 8)} (worktree ${r.close?.worktree ?? "removed"}, branch ${r.close?.branch ?? "deleted"})`);
  return `${lines.join("\n")}\n`;
}

const LETTER: Record<string, string> = { added: "A", modified: "M", deleted: "D", renamed: "R", copied: "C", typechange: "T", unmerged: "U", unknown: "?" };

/** One line per file: status letter, +adds -dels, path (old → new for renames). */
export function describeDiffFiles(d: SessionDiff): string {
  const rows = d.files.map((f) => {
    const counts = f.binary ? "binary" : `+${f.additions} -${f.deletions}`;
    return `${LETTER[f.status] ?? "?"} ${counts.padEnd(12)} ${f.oldPath ? `${f.oldPath} -> ${f.path}` : f.path}`;
  });
  return rows.length ? `${rows.join("\n")}\n` : "";
}
