// Main-root resolution without spawning git: walk up to the nearest `.git`,
// follow a linked worktree's gitdir to the common directory, and answer the
// main checkout that owns it. Every caller (CLI, hooks, backend, a Tab's
// completion) uses this one resolver so a project has one identity. It loads
// node:fs alone: a Tab is a process start, and pays for every module.
import { readFileSync, realpathSync, statSync } from "node:fs";

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

/** path.resolve for an absolute base, as written: `.`, `..` and empty segments folded, no link followed. */
export function resolveLexically(base: string, path: string): string {
  const parts: string[] = [];
  for (const segment of (path.startsWith("/") ? path : `${base}/${path}`).split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") parts.pop();
    else parts.push(segment);
  }
  return `/${parts.join("/")}`;
}

const parentOf = (dir: string) => dir.slice(0, dir.lastIndexOf("/")) || "/";

/** What stat says, or undefined for a path that is not there or cannot be looked at (existsSync's answer). */
function statOrNone(p: string) {
  try {
    return statSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** The checkout containing `from`, or undefined outside any git checkout. Throws when a `.git` cannot be read. */
export function findCheckout(from: string): CheckoutInfo | undefined {
  for (let dir = realOrSelf(resolveLexically(process.cwd(), from)); ; dir = parentOf(dir)) {
    const dotGit = dir === "/" ? "/.git" : `${dir}/.git`;
    const st = statOrNone(dotGit);
    if (st?.isDirectory()) return { top: dir, mainRoot: dir, commonDir: dotGit, gitDir: dotGit };
    // A submodule's gitdir is written relative to its folder.
    const written = st?.isFile() && /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8"))?.[1];
    if (written) {
      const gitDir = resolveLexically(dir, written);
      let commonDir = gitDir;
      if (statOrNone(`${gitDir}/commondir`)) commonDir = realOrSelf(resolveLexically(gitDir, readFileSync(`${gitDir}/commondir`, "utf8").trim()));
      // A submodule's gitdir has no commondir and lives under modules/: treat its folder as the root.
      const mainRoot = commonDir.endsWith("/.git") ? parentOf(commonDir) : dir;
      return { top: dir, mainRoot, commonDir, gitDir };
    }
    if (dir === "/") return undefined;
  }
}

export function resolveMainRoot(from: string): string | undefined {
  return findCheckout(from)?.mainRoot;
}
