// Undoing the git half of a create, proven thing by thing (DESIGN.md §13,
// issue 21 items 7 and 10). A step noted *made* on the receipt is this
// create's. A step noted only *begun* (its process died while git ran) made
// whatever it left only when that can be proven: the names were free under the
// locks when it began, so the branch is ours if it still points at the fork
// point (no commit of anyone's on it) and is checked out nowhere else, and the
// folder is ours if git registered it as the worktree of that branch, or it
// holds nothing but git's first file. Anything else is left as it is and said
// so. What is already gone counts as undone: a receipt whose things are all
// gone retires itself.
import { readdirSync, realpathSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { SpexError } from "../errors";
import { lstatOrAbsent } from "../nofollow";
import { readOwnBytes } from "../record";
import { environMatcher, environReadable, listPids, commandLines } from "../proc";
import type { WorktreeEntry } from "../git/worktrees";
import { branchTip, listWorktrees, runGit } from "./git-run";
import { oneLine } from "../git/sync";

/** Why a thing a create's receipt names is not provably that create's: it stays, and the receipt says so. */
export function notOurs(what: string, why: string): SpexError {
  return new SpexError("not_ours", `${what} ${why}: it is not provably this create's, so it was left as it is`);
}

const samePath = (a: string, b: string) => resolve(a) === resolve(b);
const headsRef = (branch: string) => `refs/heads/${branch}`;

/** A folder that holds nothing, or only the `.git` file git writes first: removing it loses nobody's work. */
function onlyGitsFirstFile(path: string): boolean {
  try {
    return readdirSync(path).every((n) => n === ".git");
  } catch {
    return false;
  }
}

const NULL_OID = /^0+$/;

/**
 * A `git worktree add` killed before it pointed the new HEAD anywhere: git's
 * own lock still held, HEAD the null id, the folder empty but for git's first
 * file. Nobody's work can be in it yet. The lock's reason is not read: git
 * writes it in the user's language ("initializing", "initialisiere"…), and
 * the null HEAD, which only an unfinished add leaves, is the proof.
 */
function halfAdded(entry: WorktreeEntry, path: string): boolean {
  return entry.locked && entry.branch === "" && NULL_OID.test(entry.head) && onlyGitsFirstFile(path);
}

async function removeRegistered(root: string, path: string): Promise<void> {
  // Twice forced: a worktree git left locked (its own "initializing") is removed too.
  const r = await runGit(root, ["worktree", "remove", "--force", "--force", "--end-of-options", path]);
  if (r.code === 0) return;
  // Registered to this create's branch, made by this create: what git will not remove is still ours to delete.
  // git refuses a folder whose .git file is missing or cut short (a kill between git writing the registration
  // and that file); prune takes the registration once its folder is gone, but never while it is locked.
  await runGit(root, ["worktree", "unlock", "--end-of-options", path]);
  rmSync(path, { recursive: true, force: true });
  await runGit(root, ["worktree", "prune"]);
  // What is still registered is not undone: the receipt stays and says so, rather than retiring over it.
  if ((await listWorktrees(root)).some((e) => samePath(e.path, path))) {
    throw new SpexError("git_failed", `git keeps the worktree ${path} registered after its folder was removed: git worktree remove said ${oneLine(r.stderr) || `exit ${r.code}`}`);
  }
}

/** A file's text, read as a record is (never through a link); undefined when it is not a regular file. */
function regularText(file: string): string | undefined {
  const got = readOwnBytes(file);
  return "bytes" in got ? got.bytes.toString("utf8") : undefined;
}

/**
 * A `git worktree add` killed while it wrote its bookkeeping can leave the
 * worktree's `commondir` file empty, and then every git command that lists
 * worktrees fails (`git worktree list`, `git branch -D`) for the whole
 * repository. Remove that folder of git's when it is provably this create's:
 * the worktree's `.git` file names it, it names that worktree back, git's own
 * lock of an unfinished add is still in it, and the worktree holds nothing but
 * that `.git` file. Anything else is left for git to list and judge.
 */
async function repairHalfWrittenAdd(root: string, path: string): Promise<void> {
  const pointer = regularText(join(path, ".git"))?.match(/^gitdir: (.+)\n?$/)?.[1];
  if (!pointer || !onlyGitsFirstFile(path)) return;
  const admin = resolve(path, pointer);
  if (regularText(join(admin, "commondir")) !== "") return;
  if (lstatOrAbsent(join(admin, "locked")) === undefined) return;
  const r = await runGit(root, ["rev-parse", "--git-common-dir"]);
  if (r.code !== 0 || dirname(admin) !== join(resolve(root, r.stdout.trim()), "worktrees")) return;
  const namesBack = regularText(join(admin, "gitdir"))?.trim();
  if (!namesBack || !samePath(namesBack, join(realpathSync(path), ".git"))) return;
  rmSync(admin, { recursive: true, force: true });
}

export interface WorktreeStep {
  path: string;
  branch: string;
  /** The fork point, when the receipt knows it. */
  start?: string;
  /** Noted made: git answered that it made it. */
  made: boolean;
}

/** Remove the worktree a create made; false when nothing is there. */
export async function undoWorktree(root: string, step: WorktreeStep): Promise<boolean> {
  if (!step.made) await repairHalfWrittenAdd(root, step.path);
  const entries: WorktreeEntry[] = await listWorktrees(root);
  const entry = entries.find((e) => samePath(e.path, step.path));
  const present = lstatOrAbsent(step.path) !== undefined;
  if (!entry && !present) return false;
  if (!step.made) {
    if (entry && halfAdded(entry, step.path)) {
      // git died in its own first step: nothing but its bookkeeping is there.
    } else if (entry) {
      if (entry.branch !== headsRef(step.branch)) throw notOurs(`the worktree ${step.path}`, `is on ${entry.branch || "a detached HEAD"}, not on ${step.branch}`);
      const tip = await branchTip(root, step.branch);
      if (step.start && tip !== undefined && tip !== step.start) throw notOurs(`the worktree ${step.path}`, `holds commits on ${step.branch} past the fork point`);
    } else if (!onlyGitsFirstFile(step.path)) {
      throw notOurs(`the folder ${step.path}`, "is not a worktree git made and holds files");
    }
  }
  if (entry) await removeRegistered(root, step.path);
  else rmSync(step.path, { recursive: true, force: true });
  await runGit(root, ["worktree", "prune"]);
  return true;
}

export interface BranchStep {
  name: string;
  start?: string;
  made: boolean;
}

/** Delete the branch a create made; false when there is none. */
export async function undoBranch(root: string, step: BranchStep): Promise<boolean> {
  const tip = await branchTip(root, step.name);
  if (tip === undefined) return false;
  if (step.start && tip !== step.start) throw notOurs(`the branch ${step.name}`, `has moved past the fork point ${step.start.slice(0, 12)}`);
  if (!step.start && !step.made) throw notOurs(`the branch ${step.name}`, "was never noted made");
  const elsewhere = (await listWorktrees(root)).find((e) => e.branch === headsRef(step.name));
  if (elsewhere) throw notOurs(`the branch ${step.name}`, `is checked out at ${elsewhere.path}`);
  const args = ["branch", "-D", "--end-of-options", step.name];
  const r = await runGit(root, args);
  if (r.code !== 0 && (await branchTip(root, step.name)) !== undefined) throw new SpexError("git_failed", `git ${args.join(" ")}: ${r.stderr.trim()}`);
  return true;
}

/** How long a dead create's git (and the hooks it runs) may still be at work before a recovery goes ahead anyway. */
const STILL_RUNNING_MS = 10 * 60 * 1000;

/**
 * Is a process of this create still running (its git, a hook git runs)? Its
 * begun steps are then not settled yet: a recovery waits for it rather than
 * removing a folder git is still writing. Where start environments cannot be
 * read, the git that names the worktree in its arguments stands for it.
 */
export function createStillRunning(id: string, createdAt: string, worktree: string | undefined, now = Date.now()): boolean {
  if (now - Date.parse(createdAt) > STILL_RUNNING_MS) return false;
  if (environReadable()) {
    const ofCreate = environMatcher("SPEX_CREATE_ID", id);
    return listPids().some((pid) => pid !== process.pid && ofCreate(pid));
  }
  return worktree !== undefined && commandLines().some((c) => c.argv.includes(worktree) && c.argv.some((a) => /(^|\/)git$/.test(a)));
}
