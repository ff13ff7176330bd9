// The sessions a selector that matched nothing most likely meant: what a
// person typed is usually part of, or a typo of, something `ls` showed them
// (a label, a slug, a branch, an id prefix), so those are what it is held to.
import { editDistance, labelOf, shortId } from "../naming";
import type { RecordReading } from "../record";
import { basename } from "node:path";

type OkReading = Extract<RecordReading, { kind: "ok" }>;

/** What `ls` shows of a session that a person could have typed. */
function wordsOf(r: OkReading): string[] {
  const rec = r.record;
  return [shortId(r.id, 8), labelOf(rec), rec.name, rec.title, rec.node, rec.branch, rec.tmux_session, basename(rec.worktree_path)]
    .filter((w) => w !== "")
    .map((w) => w.toLowerCase());
}

/** How far `typed` is from a session: 0 when one contains the other, else the edit distance to its nearest word. */
function distance(typed: string, words: string[]): number {
  let best = Infinity;
  for (const w of words) {
    if (typed.length >= 2 && (w.includes(typed) || (w.length >= 2 && typed.includes(w)))) return 0;
    best = Math.min(best, editDistance(typed, w));
  }
  return best;
}

/** At most `limit` sessions near `selector`, nearest first; none when nothing is near. */
export function closestSessions(ok: OkReading[], selector: string, limit = 3): OkReading[] {
  const typed = selector.toLowerCase();
  if (typed === "") return [];
  const within = Math.max(1, Math.floor(typed.length / 3));
  return ok
    .map((r) => ({ r, d: distance(typed, wordsOf(r)) }))
    .filter((x) => x.d <= within)
    .sort((a, b) => a.d - b.d || a.r.record.createdAt.localeCompare(b.r.record.createdAt))
    .slice(0, limit)
    .map((x) => x.r);
}
