// The files git ignores, copied into a new worktree (issue 26 item 2): the
// patterns of `include` in spexcode.json and of `.worktreeinclude` (both in
// the main checkout; gitignore syntax) pick, among the files the main
// checkout's git ignores, which are copied. Regular files only, read and
// written without following a link on either side: a link in the main
// checkout is skipped (not followed), a link the base branch planted in the
// worktree is refused (`unsafe_path`), as for every other write of a create.
import { spawn } from "node:child_process";
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SpexError, isSpexError } from "../errors";
import { gitEnv } from "../git";
import { sha256Hex } from "../hash";
import { lstatOrAbsent, readFileNoFollow, refuseLinks, relativeInside, writeFileNoFollow } from "../nofollow";
import type { WorkspaceConfig } from "./config";
import type { IncludedFiles } from "./include-record";

export const INCLUDE_FILE = ".worktreeinclude";

/** `git <args>` in `cwd`, `input` on its stdin; stdout whole (a listing of paths). */
function git(cwd: string, args: string[], input = ""): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { cwd, env: gitEnv(), stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code: code ?? -1, stdout: Buffer.concat(out).toString("utf8"), stderr }));
    child.stdin.end(input);
  });
}

/** The patterns: `include` of the config, then the lines of the main checkout's .worktreeinclude. */
export function includePatterns(mainRoot: string, config: Pick<WorkspaceConfig, "include">): string[] {
  // Read from the main checkout, never through a link (unsafe_path).
  const text = readFileNoFollow(mainRoot, INCLUDE_FILE) ?? "";
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "" && !l.startsWith("#"));
  return [...config.include, ...lines];
}

/**
 * Untracked files of the main checkout that the patterns match and the
 * repository's own rules ignore, sorted. Two git calls: the patterns as an
 * exclude list pick the candidates, `check-ignore` keeps the ignored ones.
 */
export async function includeCandidates(mainRoot: string, patterns: string[], skipUnder = ""): Promise<string[]> {
  if (patterns.length === 0) return [];
  const listed = await git(mainRoot, ["ls-files", "-z", "--others", "--ignored", ...patterns.flatMap((p) => ["-x", p])]);
  if (listed.code !== 0) throw new SpexError("git_failed", `listing the files to include failed: ${listed.stderr.trim()}`, { hint: "check the include patterns and .worktreeinclude" });
  const candidates = listed.stdout.split("\0").filter((p) => p !== "");
  if (candidates.length === 0) return [];
  const ignored = await git(mainRoot, ["check-ignore", "-z", "--stdin"], candidates.join("\0") + "\0");
  // 1: none of them is ignored.
  if (ignored.code !== 0 && ignored.code !== 1) throw new SpexError("git_failed", `checking which files git ignores failed: ${ignored.stderr.trim()}`, { hint: "check the repository's .gitignore" });
  // Never what lies in the folder of the session worktrees (other sessions' files).
  return ignored.stdout
    .split("\0")
    .filter((p) => p !== "" && !(skipUnder && (p === skipUnder || p.startsWith(`${skipUnder}/`))))
    .sort();
}

interface Limits {
  includeMaxFileBytes: number;
  includeMaxTotalBytes: number;
}

/** The file's bytes and mode from the main checkout, or why it is left out. */
function readSource(mainRoot: string, rel: string, limits: Limits, total: number): { bytes: Buffer; mode: number } | { reason: string } {
  try {
    refuseLinks(mainRoot, rel);
  } catch (e) {
    if (isSpexError(e) && e.code === "unsafe_path") {
      const what = String(e.details.path ?? "") === join(mainRoot, rel) ? "is" : "lies under";
      return { reason: e.message.includes("symbolic link") ? `${what} a symbolic link in the main checkout (never followed)` : "not a regular file" };
    }
    throw e;
  }
  let fd: number;
  try {
    fd = openSync(join(mainRoot, rel), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    // Replaced by a link (or removed) since it was checked.
    return { reason: "changed while it was being copied (a link now, or gone)" };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { reason: "not a regular file" };
    if (st.size > limits.includeMaxFileBytes) return { reason: `${st.size} bytes, over includeMaxFileBytes (${limits.includeMaxFileBytes})` };
    if (total + st.size > limits.includeMaxTotalBytes) return { reason: `would take the copies past includeMaxTotalBytes (${limits.includeMaxTotalBytes})` };
    return { bytes: readFileSync(fd), mode: st.mode & 0o777 };
  } finally {
    closeSync(fd);
  }
}

/**
 * Copy the candidates into the worktree. A link on the worktree's side (the
 * base branch planted it) refuses the whole create (`unsafe_path`); a file the
 * worktree already has (the base tracks it) is left as the base has it.
 */
export function copyIncluded(mainRoot: string, worktree: string, candidates: string[], limits: Limits): IncludedFiles {
  const out: IncludedFiles = { copied: [], skipped: [] };
  let total = 0;
  for (const rel of candidates) {
    // Refused, not skipped: a planted link must not receive the main checkout's secrets.
    refuseLinks(worktree, rel);
    if (lstatOrAbsent(join(worktree, rel))) {
      out.skipped.push({ path: rel, reason: "already in the worktree (its base branch has it)" });
      continue;
    }
    const source = readSource(mainRoot, rel, limits, total);
    if ("reason" in source) {
      out.skipped.push({ path: rel, reason: source.reason });
      continue;
    }
    writeFileNoFollow(worktree, rel, source.bytes, { mode: source.mode, forceMode: true });
    total += source.bytes.length;
    out.copied.push({ path: rel, bytes: source.bytes.length, sha256: sha256Hex(source.bytes) });
  }
  return out;
}

/** The whole step of a create: patterns, candidates, copies; undefined when nothing is configured. */
export async function includeIntoWorktree(mainRoot: string, worktree: string, config: WorkspaceConfig, worktreeRoot: string): Promise<IncludedFiles | undefined> {
  const patterns = includePatterns(mainRoot, config);
  if (patterns.length === 0) return undefined;
  const inside = relativeInside(mainRoot, worktreeRoot);
  const candidates = await includeCandidates(mainRoot, patterns, inside ?? "");
  return copyIncluded(mainRoot, worktree, candidates, config);
}
