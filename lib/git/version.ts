// The oldest git spex runs with, and the installed one. The floor is set by
// `git merge-tree --write-tree` (2.38), which computes a merge without a
// checkout; `git worktree list -z` (2.36) and `rev-parse --end-of-options`
// (2.30) come below it. An older git answers those with its usage text, so
// a step that needs one refuses first with `git_too_old` and says why.
import { SpexError } from "../errors";
import { childProcess } from "../proc/child-process";

export const MIN_GIT = { major: 2, minor: 38 } as const;
export const MIN_GIT_TEXT = `${MIN_GIT.major}.${MIN_GIT.minor}`;

export interface GitVersion {
  major: number;
  minor: number;
  /** git's own line, e.g. `git version 2.34.1`. */
  text: string;
}

/** `git version 2.39.5`, `git version 2.39.3 (Apple Git-145)`, `git version 2.40.0.windows.1`. */
export function parseGitVersion(line: string): GitVersion | undefined {
  const m = /^git version (\d+)\.(\d+)/.exec(line.trim());
  return m ? { major: Number(m[1]), minor: Number(m[2]), text: line.trim() } : undefined;
}

export function gitOldEnough(v: GitVersion): boolean {
  return v.major > MIN_GIT.major || (v.major === MIN_GIT.major && v.minor >= MIN_GIT.minor);
}

let newEnough: string | undefined;

/**
 * The first line of `git version`; undefined when git does not run. A git new
 * enough is remembered for the process; any other answer is asked again, so a
 * long-running `spex serve` sees the git a person installed after a refusal.
 */
export function installedGitLine(): string | undefined {
  if (newEnough) return newEnough;
  const r = childProcess().spawnSync("git", ["version"], { encoding: "utf8" });
  const line = r.status === 0 && !r.error ? (r.stdout ?? "").trim().split("\n")[0] : undefined;
  const v = line ? parseGitVersion(line) : undefined;
  if (v && gitOldEnough(v)) newEnough = line;
  return line;
}

export function gitTooOldHint(fromDoctor = false): string {
  const install = `install git ${MIN_GIT_TEXT} or newer (Ubuntu: add-apt-repository ppa:git-core/ppa; Debian 12 and Ubuntu 24.04 ship one; macOS: brew install git) and put it first on PATH`;
  return fromDoctor ? install : `${install}; \`spex doctor\` shows the git spex finds`;
}

function tooOld(what: string, v: GitVersion, suffix: string): SpexError {
  return new SpexError("git_too_old", `${what} needs git ${MIN_GIT_TEXT} or newer (git merge-tree --write-tree, git worktree list -z), and the git on PATH is ${v.major}.${v.minor} (${v.text})${suffix}`, {
    hint: gitTooOldHint(),
    details: { gitVersion: v.text, minimum: MIN_GIT_TEXT },
  });
}

/** installedGitLine without waiting on the spawn: for a caller with other work to do meanwhile. */
function installedGitLineSoon(): Promise<string | undefined> {
  if (newEnough) return Promise.resolve(newEnough);
  return new Promise((done) => {
    childProcess().execFile("git", ["version"], { encoding: "utf8" }, (error, stdout) => {
      const line = error ? undefined : String(stdout).trim().split("\n")[0];
      const v = line ? parseGitVersion(line) : undefined;
      if (v && gitOldEnough(v)) newEnough = line;
      done(line);
    });
  });
}

/**
 * requireGit for a step that starts it early and awaits it before its first
 * change, so the `git version` spawn runs beside its other git calls (session
 * new: its start is benched). The promise never rejects unawaited.
 */
export function requireGitSoon(what: string): Promise<void> {
  const checked = installedGitLineSoon().then((line) => {
    const v = line ? parseGitVersion(line) : undefined;
    if (v && !gitOldEnough(v)) throw tooOld(what, v, "; nothing was changed");
  });
  checked.catch(() => undefined);
  return checked;
}

function oldGit(): GitVersion | undefined {
  const line = installedGitLine();
  const v = line ? parseGitVersion(line) : undefined;
  return v && !gitOldEnough(v) ? v : undefined;
}

/**
 * Refuse `what` when the installed git is older than spex needs. A version
 * line spex cannot read is let through: git's own error says more than a guess.
 */
export function requireGit(what: string): void {
  const v = oldGit();
  if (v) throw tooOld(what, v, "; nothing was changed");
}

/**
 * For a git step that failed: `git_too_old` when git answered with its usage
 * status (129: an option it does not know) and is older than spex needs, so
 * the person reads why instead of git's usage text; undefined otherwise.
 */
export function gitTooOldFailure(what: string, exit: number): SpexError | undefined {
  if (exit !== 129) return undefined;
  const v = oldGit();
  return v ? tooOld(what, v, "") : undefined;
}
