// Helpers for the review tests: sessions made through the built binary, work
// committed in their worktrees, and a fingerprint of a checkout (its HEAD, the
// bytes of its files, `git status`) to prove a step left it exactly as it was.
import { readFileSync, readdirSync, writeFileSync, mkdirSync, lstatSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Sandbox } from "./sandbox";

export interface MadeSession {
  id: string;
  branch: string;
  worktree: string;
}

export function newSession(sb: Sandbox, prompt: string, extra: string[] = ["--no-launch"]): MadeSession {
  const r = sb.spex(["session", "new", "--launcher", "shell", "--json", ...extra, prompt]);
  if (r.code !== 0) throw new Error(`session new failed: ${r.stderr}`);
  const rec = JSON.parse(r.stdout);
  return { id: rec.session_id, branch: rec.branch, worktree: rec.worktree_path };
}

/** Write files (relative path → content) in `dir` and commit them there. */
export function commitFiles(sb: Sandbox, dir: string, files: Record<string, string>, message: string): string {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  sb.git(["add", "-A", "--", ...Object.keys(files)], dir);
  sb.git(["commit", "-q", "-m", message], dir);
  return sb.git(["rev-parse", "HEAD"], dir).trim();
}

export const refOf = (sb: Sandbox, ref: string): string => sb.git(["rev-parse", ref]).trim();

/** Every file under `dir` (not .git, not .worktrees) with its bytes, sorted. */
function files(dir: string, rel = ""): [string, string][] {
  const out: [string, string][] = [];
  for (const name of readdirSync(join(dir, rel)).sort()) {
    if (rel === "" && (name === ".git" || name === ".worktrees")) continue;
    const path = rel ? `${rel}/${name}` : name;
    const st = lstatSync(join(dir, path));
    if (st.isDirectory()) out.push(...files(dir, path));
    else out.push([path, readFileSync(join(dir, path)).toString("base64")]);
  }
  return out;
}

/** What a user would see of a checkout: its HEAD (symbolic and commit), status, and every file's bytes. */
export function checkoutPrint(sb: Sandbox, dir: string): unknown {
  let head = "(detached)";
  try {
    head = sb.git(["symbolic-ref", "-q", "HEAD"], dir).trim();
  } catch {
    // detached: the commit below says where
  }
  return {
    head,
    commit: sb.git(["rev-parse", "HEAD"], dir).trim(),
    status: sb.git(["status", "--porcelain=v1", "--untracked-files=all"], dir),
    index: sb.git(["ls-files", "-s"], dir),
    files: files(dir),
  };
}

export const parse = (stdout: string) => JSON.parse(stdout);
