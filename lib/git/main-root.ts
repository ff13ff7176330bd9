// Main-root resolution without spawning git: walk up to the nearest `.git`,
// follow a linked worktree's gitdir to the common directory, and answer the
// main checkout that owns it. Every caller (CLI, hooks, backend) uses this one
// resolver so a project has one identity.
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";

export interface CheckoutInfo {
  /** The top of the checkout that contains the folder (a linked worktree or the main checkout). */
  top: string;
  /** The main checkout every linked worktree belongs to. */
  mainRoot: string;
  /** The shared git directory (`<main>/.git` for non-bare repos). */
  commonDir: string;
  /** This checkout's own git directory (differs from commonDir in a linked worktree). */
  gitDir: string;
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

function readGitFile(dotGit: string): string | undefined {
  const text = readFileSync(dotGit, "utf8");
  const m = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  if (!m) return undefined;
  return isAbsolute(m[1]!) ? m[1]! : resolve(dirname(dotGit), m[1]!);
}

/** The checkout containing `from`, or undefined outside any git checkout. */
export function findCheckout(from: string): CheckoutInfo | undefined {
  let dir = realOrSelf(resolve(from));
  for (;;) {
    const dotGit = join(dir, ".git");
    if (existsSync(dotGit)) {
      const st = statSync(dotGit);
      if (st.isDirectory()) {
        return { top: dir, mainRoot: dir, commonDir: dotGit, gitDir: dotGit };
      }
      const gitDir = readGitFile(dotGit);
      if (gitDir) {
        let commonDir = gitDir;
        const commonFile = join(gitDir, "commondir");
        if (existsSync(commonFile)) {
          const rel = readFileSync(commonFile, "utf8").trim();
          commonDir = realOrSelf(isAbsolute(rel) ? rel : resolve(gitDir, rel));
        }
        // A submodule's gitdir has no commondir and lives under modules/: treat its folder as the root.
        const mainRoot = commonDir.endsWith("/.git") ? dirname(commonDir) : dir;
        return { top: dir, mainRoot, commonDir, gitDir };
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

export function resolveMainRoot(from: string): string | undefined {
  return findCheckout(from)?.mainRoot;
}
