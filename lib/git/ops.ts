// Git operations spex performs, through simple-git's raw() (it has no worktree
// API). simple-git is imported lazily: most commands never touch git.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { appendFileNoFollow, readFileNoFollow } from "../nofollow";
import { childProcess } from "../proc/child-process";
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

/**
 * The pattern that matches exactly one full ref name in `rev-parse --glob`: a
 * pattern with no wildcard would match the refs *under* it, so the last
 * character, a letter or digit, goes in brackets.
 */
function exactGlob(ref: string): string {
  if (!/[A-Za-z0-9]$/.test(ref)) throw new Error(`exactGlob: ${ref} does not end in an ASCII letter or digit`);
  return `${ref.slice(0, -1)}[${ref.slice(-1)}]`;
}

export interface RefProbe {
  /** The hooks folder git runs hooks from, absolute: core.hooksPath from any config git reads (global, include, `~`), else <git dir>/hooks. */
  hooksDir: string;
  /** The commit `mainRef` names, when it exists. */
  mainCommit: string | undefined;
  /** Which of the asked branch refs exist. */
  existing: Set<string>;
}

/**
 * One git call for what a create asks before it makes anything: the hooks
 * folder git itself uses, the commit of `mainRef` (`HEAD` or a full ref name)
 * and which of `refs` (full names ending in a letter or digit) exist. Each ref
 * is asked as a `--glob` that matches only it, named (`--symbolic-full-name`)
 * when it exists. rev-parse takes whatever follows a name that resolves to
 * nothing as paths, so when `mainRef` names nothing (an unborn HEAD, a branch
 * deleted meanwhile) the refs are asked again with for-each-ref.
 */
export async function probeRefs(cwd: string, mainRef: string, refs: string[]): Promise<RefProbe> {
  const out = await (await git(cwd)).raw(["rev-parse", "--revs-only", "--git-path", "hooks", mainRef, "--symbolic-full-name", ...refs.map((r) => `--glob=${exactGlob(r)}`)]);
  const [hooks = "", ...lines] = out.split("\n");
  const mainCommit = lines[0] && /^[0-9a-f]{40,64}$/.test(lines[0]) ? lines[0] : undefined;
  const existing = mainCommit ? new Set(lines.filter((l) => refs.includes(l))) : new Set((await resolveRefs(cwd, refs)).keys());
  return { hooksDir: resolve(cwd, hooks), mainCommit, existing };
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

/** The hooks folder git runs hooks from in the checkout at `cwd` (see RefProbe.hooksDir). */
export function hooksDirOf(cwd: string): string {
  const r = childProcess().spawnSync("git", ["rev-parse", "--git-path", "hooks"], { cwd, env: gitEnv(), encoding: "utf8" });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`git rev-parse --git-path hooks failed in ${cwd}: ${r.stderr.trim()}`);
  return resolve(cwd, r.stdout.replace(/\n$/, ""));
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
