// "merged" on a row: `spex session merge` landed the session's branch and the
// branch has not moved since. The merge leaves a small mark beside the timeline
// event it writes (sessions/<id>/merged.json), so a listing learns it with one
// open per row instead of reading every timeline; whether the branch moved on
// is one `git for-each-ref` for the whole listing, and only when some row has a
// mark (a squash or rebase lands copies, so "an ancestor of main" cannot say it).
import { flagSideFile, readOwnBytes, type RecordReading } from "../record";
import { type ListedSession, sideFileAbsent } from "../store/listing-index";
import { gitSync } from "../git/sync";
import { writeStoreFile } from "../nofollow";
import { type ProjectStore, sessionPaths } from "../store";

export interface MergedMark {
  /** The session's tip that landed. */
  branchHead: string;
  /** The branch it landed on. */
  into: string;
  at: string;
}

/** Written by a merge that landed, under the session's record lock. */
export function writeMergedMark(store: ProjectStore, id: string, mark: MergedMark): void {
  // Its flag in the listing index first (lib/record/listing.ts): a listing looks up only flagged marks.
  flagSideFile(store.dir, id, "merged.json");
  writeStoreFile(sessionPaths(store, id).merged, `${JSON.stringify(mark)}\n`);
}

export function readMergedMark(store: ProjectStore, id: string): MergedMark | undefined {
  const got = readOwnBytes(sessionPaths(store, id).merged, { oftenAbsent: true });
  if (!("bytes" in got)) return undefined;
  try {
    const m = JSON.parse(got.bytes.toString("utf8")) as MergedMark;
    return typeof m?.branchHead === "string" && m.branchHead !== "" ? m : undefined;
  } catch {
    return undefined; // a torn mark says nothing; the timeline keeps the event
  }
}

/** The tips of these local branches, in one git call. */
function branchTips(root: string, branches: string[]): Map<string, string> {
  const tips = new Map<string, string>();
  if (branches.length === 0) return tips;
  const r = gitSync(root, ["for-each-ref", "--format=%(objectname) %(refname)", ...branches.map((b) => `refs/heads/${b}`)]);
  if (r.code !== 0) return tips;
  for (const line of r.stdout.split("\n")) {
    const space = line.indexOf(" ");
    if (space > 0) tips.set(line.slice(space + 1 + "refs/heads/".length), line.slice(0, space));
  }
  return tips;
}

/** The sessions among `readings` whose branch landed and has not moved since. */
export function mergedSessions(store: ProjectStore, readings: RecordReading[], listing?: Map<string, ListedSession>): Set<string> {
  const marked: { id: string; branch: string; head: string }[] = [];
  for (const r of readings) {
    if (r.kind !== "ok" || r.retired || !r.record.branch) continue;
    if (sideFileAbsent(listing?.get(r.id), "merged.json")) continue;
    const mark = readMergedMark(store, r.id);
    if (mark) marked.push({ id: r.id, branch: r.record.branch, head: mark.branchHead });
  }
  const tips = branchTips(store.root, [...new Set(marked.map((m) => m.branch))]);
  return new Set(marked.filter((m) => tips.get(m.branch) === m.head).map((m) => m.id));
}
