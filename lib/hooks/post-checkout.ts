// The git post-checkout hook: installed in the repository's hooks folder
// without losing a byte of anyone else's hook. A hook found in its place (the
// user's, husky's, pre-commit's — also one installed after spex's own) is
// moved aside under the next free chained name and run first, every time.
// A hooks folder inside the work tree (husky's core.hooksPath=.husky) is the
// project's files: spex writes nothing there (a tracked hook rewritten would
// turn the checkout dirty and carry this machine's path into a commit), and a
// relative one is read from each worktree's own checkout anyway, so a hook
// spex put in the main checkout's copy would never run in a session's.
// A hooks folder outside the repository (core.hooksPath in ~/.gitconfig, or
// a repository's config naming a shared folder) serves other repositories
// too: it is the user's, and spex writes nothing there either. Which folder
// git uses is asked of git (RefProbe.hooksDir, hooksDirOf), never read from a
// config file: a global value, an include or a `~` decide it as well.
import { lstatSync, readdirSync, renameSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { ASSETS } from "../generated/assets";
import { errnoCode } from "../errors";
import { readFileNoFollow, refuseLinks, splitUnder, writeFileNoFollow } from "../nofollow";

const MARK = "spex-post-checkout";
const HOOK = "post-checkout";
const CHAINED = `${HOOK}.spex-chained`;
const CHAINED_NAME = /^post-checkout\.spex-chained(?:-([1-9][0-9]*))?$/;

/** Where link checks start: the git folder or the checkout that holds the hooks folder, else the folder itself. */
function trustedRoot(dir: string, commonDir: string, mainRoot: string): string {
  for (const root of [commonDir, mainRoot]) if (inside(dir, root)) return root;
  return dir;
}

/** The code a hooks folder inside the work tree is reported with (doctor). */
export const HOOKS_IN_WORK_TREE = "hooks_path_in_worktree";
/** The code a hooks folder outside the repository is reported with (doctor). */
export const HOOKS_OUTSIDE_REPO = "hooks_path_outside_repo";

/** The line a person may add to their own post-checkout to have spex's re-render there. */
export const CHAIN_LINE = `command -v spex >/dev/null 2>&1 && spex internal post-checkout "$@" || :`;

const inside = (dir: string, root: string) => {
  const rel = relative(root, dir);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
};

/** The hooks folder lies in the main checkout's work tree (not in its git folder). */
export function hooksInWorkTree(dir: string, commonDir: string, mainRoot: string): boolean {
  return !inside(dir, commonDir) && inside(dir, mainRoot);
}

/** The hooks folder is neither in the repository's git folder nor in its work tree: a folder shared with other repositories. */
export function hooksOutsideRepo(dir: string, commonDir: string, mainRoot: string): boolean {
  return !inside(dir, commonDir) && !inside(dir, mainRoot);
}

/** The displaced hooks in the order they run: the first one chained, then -2, -3, … */
export function chainedHooks(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return [];
    throw e;
  }
  const rank = (n: string) => Number(CHAINED_NAME.exec(n)![1] ?? 1);
  return names.filter((n) => CHAINED_NAME.test(n)).sort((a, b) => rank(a) - rank(b));
}

function nextChainedName(taken: string[]): string {
  if (taken.length === 0) return CHAINED;
  const last = Number(CHAINED_NAME.exec(taken[taken.length - 1]!)![1] ?? 1);
  return `${CHAINED}-${last + 1}`;
}

export interface PostCheckoutState {
  file: string;
  /** The hooks folder is inside the work tree: spex installs nothing there. */
  inWorkTree: boolean;
  /** The hooks folder is outside the repository (a shared one): spex installs nothing there. */
  outsideRepo: boolean;
  /** Something is installed at post-checkout. */
  installed: boolean;
  /** What is installed is spex's own hook. */
  ours: boolean;
  /** The displaced hooks spex's hook runs first, by name in the hooks folder. */
  chained: string[];
}

function isOurs(dir: string, root: string): { installed: boolean; ours: boolean } {
  const { root: r, rel } = splitUnder(root, join(dir, HOOK));
  let st;
  try {
    st = lstatSync(join(r, rel));
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return { installed: false, ours: false };
    throw e;
  }
  // spex writes a regular file; a link (or anything else) is someone else's.
  if (!st.isFile()) return { installed: true, ours: false };
  return { installed: true, ours: (readFileNoFollow(r, rel) ?? "").includes(MARK) };
}

/** What stands in the hooks folder `dir` (the one git uses: hooksDirOf) of the repository at `commonDir`/`mainRoot`. */
export function postCheckoutState(dir: string, commonDir: string, mainRoot: string): PostCheckoutState {
  return { file: join(dir, HOOK), inWorkTree: hooksInWorkTree(dir, commonDir, mainRoot), outsideRepo: hooksOutsideRepo(dir, commonDir, mainRoot), ...isOurs(dir, trustedRoot(dir, commonDir, mainRoot)), chained: chainedHooks(dir) };
}

function hookText(spexBin: string, chained: string[]): string {
  // Replacer functions: a replacement string would read `$&`, `$\``, `$'` in the binary's path as patterns.
  return ASSETS["hooks/post-checkout.sh"]!.replace("@@CHAINED@@", () => chained.join(" ")).replace("@@SPEX_BIN@@", () => spexBin.replace(/'/g, () => "'\\''"));
}

/**
 * Install spex's post-checkout hook in the hooks folder `dir` git uses.
 * Whatever stands there and is not spex's own is renamed (never rewritten) to
 * the next chained name first. Nothing is written through a link
 * (`unsafe_path`). Only the repository's own git folder gets it: a hooks
 * folder inside the work tree or outside the repository gets nothing
 * (undefined), and `spex doctor` says so and how to chain by hand.
 */
export function installPostCheckout(dir: string, commonDir: string, spexBin: string): string | undefined {
  if (!inside(dir, commonDir)) return undefined;
  const { root, rel } = splitUnder(commonDir, join(dir, HOOK));
  const relDir = relative(root, dir);
  if (relDir !== "") refuseLinks(root, relDir, "folder");
  const file = join(dir, HOOK);
  const chained = chainedHooks(dir);
  const { installed, ours } = isOurs(dir, root);
  if (installed && !ours) {
    const name = nextChainedName(chained);
    // A rename keeps every byte (and a link stays a link); the name is the first one past the chain.
    renameSync(file, join(dir, name));
    chained.push(name);
  }
  const text = hookText(spexBin, chained);
  if (ours && readFileNoFollow(root, rel) === text) return file;
  writeFileNoFollow(root, rel, text, { mode: 0o755, forceMode: true });
  return file;
}
