// Git operations spex performs, through simple-git's raw() (it has no worktree
// API). simple-git is imported lazily: most commands never touch git.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { appendFileNoFollow, readFileNoFollow } from "../nofollow";
import type { SimpleGit } from "simple-git";

/**
 * The environment for git children: never inherit a hook's GIT_DIR/GIT_INDEX_FILE/GIT_WORK_TREE.
 * GIT_EXEC_PATH, which git exports to every hook, goes too: simple-git refuses to run with it
 * set, so any git call from the post-checkout hook failed (git finds its own path without it).
 */
export function gitEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    if (k === "GIT_DIR" || k === "GIT_INDEX_FILE" || k === "GIT_WORK_TREE" || k === "GIT_PREFIX" || k === "GIT_COMMON_DIR" || k === "GIT_EXEC_PATH") continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

const UNSAFE_FLAGS = [
  "allowUnsafeConfigPaths",
  "allowUnsafeConfigEnvCount",
  "allowUnsafeAskPass",
  "allowUnsafeSshCommand",
  "allowUnsafeEditor",
  "allowUnsafePager",
  "allowUnsafeGitProxy",
  "allowUnsafeHooksPath",
  "allowUnsafeTemplateDir",
  "allowUnsafeCredentialHelper",
  "allowUnsafeFsMonitor",
  "allowUnsafeInclude",
];

export async function git(cwd: string, extraEnv: Record<string, string> = {}): Promise<SimpleGit> {
  const { simpleGit } = await import("simple-git");
  const env = gitEnv(extraEnv);
  // The user's environment is trusted as it is (minus a hook's GIT_DIR & co):
  // name every key so simple-git's environment guard keeps them.
  // Its argument guards target untrusted input; spex passes only its own fixed
  // argv, and a user's GIT_CONFIG_GLOBAL or GIT_SSH_COMMAND is theirs to set.
  const unsafe = Object.fromEntries(UNSAFE_FLAGS.map((k) => [k, true]));
  return simpleGit({ baseDir: cwd, trimmed: false, allowEnvironment: Object.keys(env), unsafe }).env(env);
}

/** The commit a commit-ish names, or undefined when it names none. */
export async function resolveCommit(cwd: string, rev: string): Promise<string | undefined> {
  if (!rev || rev.startsWith("-")) return undefined;
  try {
    const out = await (await git(cwd)).raw(["rev-parse", "--verify", "--end-of-options", `${rev}^{commit}`]);
    const sha = out.trim();
    return /^[0-9a-f]{40,64}$/.test(sha) ? sha : undefined;
  } catch {
    return undefined;
  }
}

/** The commits of several full ref names in one git call; refs that do not exist are absent from the map. */
export async function resolveRefs(cwd: string, refs: string[]): Promise<Map<string, string>> {
  const out = await (await git(cwd)).raw(["for-each-ref", "--format=%(refname) %(objectname)", "--", ...refs]);
  const found = new Map<string, string>();
  for (const line of out.split("\n")) {
    const space = line.lastIndexOf(" ");
    if (space > 0) found.set(line.slice(0, space), line.slice(space + 1));
  }
  return found;
}

export async function branchExists(cwd: string, branch: string): Promise<boolean> {
  return (await resolveCommit(cwd, `refs/heads/${branch}`)) !== undefined;
}

/** Add a pattern to the repository's info/exclude once (never through a link). */
export function ensureExcluded(commonDir: string, pattern: string): void {
  const text = readFileNoFollow(commonDir, "info/exclude") ?? "";
  if (text.split("\n").some((l) => l.trim() === pattern)) return;
  appendFileNoFollow(commonDir, "info/exclude", `${text && !text.endsWith("\n") ? "\n" : ""}${pattern}\n`);
}

/** Which of these paths (relative to the checkout at `cwd`) the repository tracks: one git call. */
export async function trackedPaths(cwd: string, rels: string[], env: Record<string, string> = {}): Promise<Set<string>> {
  if (rels.length === 0) return new Set();
  // Relative to `cwd` (no --full-name), as the names asked for are: a session's start folder is not the top of its worktree.
  const out = await (await git(cwd, env)).raw(["ls-files", "-z", "--", ...rels.map((r) => `:(literal)${r}`)]);
  return new Set(out.split("\0").filter(Boolean));
}

export function worktreeExists(path: string): boolean {
  return existsSync(join(path, ".git"));
}
