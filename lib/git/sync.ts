// Synchronous git for steps that run under a record lock (merge, diff): one
// spawnSync each, never a hook's GIT_DIR/GIT_INDEX_FILE (gitEnv), and an extra
// environment only where the caller means it (a private index file).
import { childProcess } from "../proc/child-process";
import { SpexError } from "../errors";
import { gitEnv } from "./ops";
import { gitTooOldFailure } from "./version";

export interface GitRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface GitRunOptions {
  env?: Record<string, string>;
  input?: string;
}

export function gitSync(cwd: string, args: string[], opts: GitRunOptions = {}): GitRun {
  const r = childProcess().spawnSync("git", args, { cwd, env: gitEnv(opts.env), input: opts.input, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (r.error) throw r.error;
  return { code: r.status ?? -1, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

/** git's message on one line (an error message carries no line break). */
export function oneLine(text: string): string {
  return text.trim().replace(/\s*\n\s*/g, "; ");
}

/** stdout of a git step that must succeed; `what` names the step in the error. */
export function gitSyncOrThrow(cwd: string, args: string[], what: string, opts: GitRunOptions = {}): string {
  const r = gitSync(cwd, args, opts);
  if (r.code !== 0) {
    const old = gitTooOldFailure(what, r.code);
    if (old) throw old;
    throw new SpexError("git_failed", `${what} failed: git ${args.join(" ")}: ${oneLine(r.stderr) || `exit ${r.code}`}`, {
      hint: "fix the repository state git reports, then run the command again",
      details: { git: args, exit: r.code, stderr: r.stderr.trim() },
    });
  }
  return r.stdout;
}
