// `spex session diff`: the session's work against its fork point, committed
// (its branch) and with `worktree` also uncommitted (a private-index tree,
// work.ts). The patch is display text: whatever the agent wrote, so its size
// is the branch's to decide: git runs without blocking (the backend serves
// this), a file past DIFF_TEXT_LIMIT_BYTES is listed as binary, and the patch
// stops at maxPatchBytes.
import { gitRead } from "../git/read";
import type { ProjectStore } from "../store";
import { forkPoint, reviewFacts } from "./facts";
import { snapshotWork, uncommittedPaths, UNREAD_BLOB } from "./work";

export type FileStatus = "added" | "modified" | "deleted" | "renamed" | "copied" | "typechange" | "unmerged" | "unknown";

export interface DiffFile {
  path: string;
  /** The path before a rename or copy. */
  oldPath?: string;
  status: FileStatus;
  /** Lines added and removed; 0 and 0 for a binary file. */
  additions: number;
  deletions: number;
  binary: boolean;
}

export interface SessionDiff {
  id: string;
  label: string;
  branch: string;
  into: string;
  /** The commit the work is compared with, and the branch tip. */
  forkPoint: string;
  head: string;
  worktree: boolean;
  /** Uncommitted files included (with `worktree`). */
  uncommitted: string[];
  /** Without `worktree`: the worktree's uncommitted files this diff leaves out (`[]` with it). */
  uncommittedNotShown: string[];
  files: DiffFile[];
  additions: number;
  deletions: number;
  /** The unified patch (absent with `stat`); cut at `maxPatchBytes`, then `truncated`. */
  patch?: string;
  truncated?: boolean;
  /** `git diff --stat` text (with `stat`). */
  stat?: string;
}

export interface DiffOptions {
  worktree?: boolean;
  stat?: boolean;
  /** Lands on this branch instead of the main branch (the fork point follows). */
  into?: string;
  maxPatchBytes?: number;
}

const STATUS: Record<string, FileStatus> = { A: "added", M: "modified", D: "deleted", R: "renamed", C: "copied", T: "typechange", U: "unmerged" };

/** Parse `git diff --raw --numstat -z`: raw entries (":…") first, then one numstat entry per file, same order. */
export function parseRawNumstat(text: string): DiffFile[] {
  const fields = text.split("\0");
  const files: DiffFile[] = [];
  let i = 0;
  while (i < fields.length && fields[i]!.startsWith(":")) {
    const letter = fields[i]!.split(" ")[4]?.charAt(0) ?? "";
    const status = STATUS[letter] ?? "unknown";
    if (letter === "R" || letter === "C") {
      files.push({ path: fields[i + 2] ?? "", oldPath: fields[i + 1] ?? "", status, additions: 0, deletions: 0, binary: false });
      i += 3;
    } else {
      files.push({ path: fields[i + 1] ?? "", status, additions: 0, deletions: 0, binary: false });
      i += 2;
    }
  }
  for (const file of files) {
    const counts = fields[i] ?? "";
    const [added, removed, path] = counts.split("\t");
    // A rename's numstat has an empty path and the two names in the next fields.
    i += path === "" ? 3 : 1;
    file.binary = added === "-";
    file.additions = file.binary ? 0 : Number(added) || 0;
    file.deletions = file.binary ? 0 : Number(removed) || 0;
  }
  return files;
}

/** At most `max` bytes of `text`, cut at a line end. */
export function cutPatch(text: string | Buffer, max: number): { patch: string; truncated: boolean } {
  const bytes = typeof text === "string" ? Buffer.from(text) : text;
  if (bytes.length <= max) return { patch: bytes.toString("utf8"), truncated: false };
  const nl = bytes.subarray(0, max).lastIndexOf(0x0a);
  return { patch: bytes.subarray(0, nl + 1).toString("utf8"), truncated: true };
}

/**
 * A file larger than this is listed as binary (no line counts, no text in the
 * patch), as git does past core.bigFileThreshold: an agent's 200 MB log would
 * otherwise be diffed line by line and read whole into the answer.
 */
export const DIFF_TEXT_LIMIT_BYTES = 16 * 1024 * 1024;

/** A patch without a limit still stops here (rather than failing when it outgrows memory). */
const MAX_PATCH_BYTES = 256 * 1024 * 1024;

/**
 * git's stat gives an unread file the stand-in's size ("Bin 0 -> 66 bytes"):
 * put the file's own size there. The stat lists the files in the raw listing's order.
 */
export function statWithSizes(stat: string, files: DiffFile[], unread: Map<string, number>): string {
  const standIn = `-> ${Buffer.byteLength(UNREAD_BLOB)} bytes`;
  const lines = stat.split("\n");
  files.forEach((file, i) => {
    const size = unread.get(file.path);
    const line = lines[i];
    if (size !== undefined && line?.endsWith(standIn)) lines[i] = `${line.slice(0, -standIn.length)}-> ${size} bytes`;
  });
  return lines.join("\n");
}

export async function diffSession(store: ProjectStore, id: string, opts: DiffOptions = {}): Promise<SessionDiff> {
  const f = await reviewFacts(store, id, opts.into);
  const fork = forkPoint(store, f);
  let to = f.head;
  let uncommitted: string[] = [];
  let unread = new Map<string, number>();
  // What a diff of the branch alone leaves out, from `git status` (nothing hashed): a person looking at
  // "no changes" while the agent's edits sit uncommitted must be told where they are.
  const notShown = !opts.worktree && f.hasWorktree ? uncommittedPaths(store.root, f.record.worktree_path, f.record.harness, !!f.record.sandbox) : [];
  if (opts.worktree && f.hasWorktree) {
    // Display only: a file past the text limit is binary anyway, so it is not hashed (work.ts).
    const snap = snapshotWork(store.root, f.record.worktree_path, f.record.harness, f.branch, { unreadOver: DIFF_TEXT_LIMIT_BYTES, sandboxed: !!f.record.sandbox });
    to = snap.tree;
    uncommitted = snap.files;
    unread = snap.unread;
  }
  const root = store.root;
  // No colour, no external diff tool or textconv of the user's: plain git output.
  const plain = ["-c", "color.ui=false", "-c", `core.bigFileThreshold=${DIFF_TEXT_LIMIT_BYTES}`, "diff", "--no-ext-diff", "--no-textconv", "-M"];
  const listed = await gitRead(root, [...plain, "--raw", "--numstat", "-z", fork, to, "--"], "listing the changed files");
  const files = parseRawNumstat(listed.stdout.toString("utf8"));
  const out: SessionDiff = {
    id: f.id,
    label: f.label,
    branch: f.branch,
    into: f.into,
    forkPoint: fork,
    head: f.head,
    worktree: !!opts.worktree,
    uncommitted,
    uncommittedNotShown: notShown,
    files,
    additions: files.reduce((n, x) => n + x.additions, 0),
    deletions: files.reduce((n, x) => n + x.deletions, 0),
  };
  if (opts.stat) {
    const stat = (await gitRead(root, [...plain, "--stat=100", fork, to, "--"], "summing up the diff")).stdout.toString("utf8");
    out.stat = unread.size > 0 ? statWithSizes(stat, files, unread) : stat;
    return out;
  }
  const max = Math.min(opts.maxPatchBytes ?? MAX_PATCH_BYTES, MAX_PATCH_BYTES);
  // git is stopped as soon as its output passes the limit.
  const patch = await gitRead(root, [...plain, "--patch", fork, to, "--"], "writing the patch", max);
  const cut = cutPatch(patch.stdout, max);
  out.patch = cut.patch;
  if (cut.truncated || patch.truncated) out.truncated = true;
  return out;
}
