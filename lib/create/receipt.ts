// Private pre-publication create receipts. A receipt names what its create has
// made so far, each thing noted only after the step that made it succeeded,
// so a create killed at any step is rolled back by the next spex command — and
// a rollback removes only what that create made: never a branch, folder or
// tmux session that was already there under the same name (DESIGN.md §13).
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { SpexError, errnoCode, isSpexError } from "../errors";
import { lstatOrAbsent, writeStoreFile } from "../nofollow";
import { ownerAlive, selfIdentity, type ProcessIdentity } from "../proc";
import { dropListingEntries, readSession } from "../record";
import { type ProjectStore, isSessionId, sessionPaths } from "../store";
import { tmuxSync } from "../tmux";
import { shellWord } from "../tmux/quote";

/** The undo steps load git: only a create that fails, or a listing that finds one abandoned, needs them. */
const undoSteps = () => import(/* webpackMode: "eager" */ "./undo");

/** What a create made, by the step that made it. */
export interface MadeByCreate {
  /** The session's folder in the store. */
  sessionDir?: string;
  /** Files written into a session folder that was already there. */
  files?: string[];
  /** The branch `git worktree add -b` created. */
  branch?: string;
  /** The worktree folder `git worktree add` created. */
  worktree?: string;
  /** The tmux session the launch opened, by its server-unique id. */
  tmux?: { socket: string; name: string; id: string };
  /** Ignored files copied into the worktree (lib/workspace), absolute: they go with it, or one by one if it stays. */
  included?: string[];
}

/**
 * Steps a create began, noted before the step runs (its names free under the
 * locks) and kept once it is made: a create killed while git ran leaves what
 * git made noted only here, and the rollback removes it only once proven
 * this create's (undo.ts). A new step that makes things outside the store
 * (a setup script's output, a port block) notes itself here the same way.
 */
export interface BegunByCreate {
  /** `git branch <name> <start>`. */
  branch?: { name: string; start: string };
  /** `git worktree add <path> <branch>`. */
  worktree?: { path: string; branch: string };
}

export interface CreateReceipt {
  id: string;
  /** The names the create chose (for doctor); only what `made` names, or `begun` proves, is ever removed. */
  worktree: string;
  branch: string;
  made: MadeByCreate;
  begun?: BegunByCreate;
  owner: ProcessIdentity;
  createdAt: string;
}

export function receiptPath(store: ProjectStore, id: string): string {
  return join(store.receiptsDir, `${id}.json`);
}

/**
 * What stands where a receipt belongs, in words; undefined when nothing does
 * (nor a receipts folder). spex writes receipts as files: anything else there
 * is not its own, so the advice is to look, never to remove (DESIGN.md §14).
 */
function standingAt(file: string): "a file" | "a folder" | "a symbolic link" | "something that is not a file" | undefined {
  let st;
  try {
    st = lstatOrAbsent(file);
  } catch (e) {
    if (errnoCode(e) === "ENOTDIR") return undefined; // receipts/ itself is no folder
    throw e;
  }
  if (!st) return undefined;
  return st.isFile() ? "a file" : st.isDirectory() ? "a folder" : st.isSymbolicLink() ? "a symbolic link" : "something that is not a file";
}

function stuckReceipt(file: string, why: string): SpexError {
  let what: ReturnType<typeof standingAt>;
  try {
    what = standingAt(file);
  } catch {
    what = undefined; // cannot be looked at: the plain advice
  }
  const hint =
    what && what !== "a file"
      ? `it is not a receipt spex wrote (a folder or a link where one belongs), and spex leaves it alone: look at it with \`ls -la ${shellWord(file)}\` and move it away if it is yours`
      : `remove ${shellWord(file)} by hand once nothing it names is needed (spex session ls lists the sessions; spex doctor lists orphans)`;
  return new SpexError("receipt_stuck", `the create receipt ${file} ${why}`, { hint, details: { file, isFile: what ? what === "a file" : null } });
}

/** Close's refusal while something still stands where session `id`'s receipt was, after close tried to retire it. */
export function receiptInTheWay(store: ProjectStore, id: string): SpexError | undefined {
  const file = receiptPath(store, id);
  const what = standingAt(file);
  if (!what) return undefined;
  const label = id.slice(0, 8);
  if (what !== "a file") {
    return new SpexError("receipt_stuck", `${what} stands where session ${label}'s create receipt belongs (${file}); spex writes receipts as files, so it is not one spex wrote and was left alone; nothing was changed`, {
      hint: `look at it with \`ls -la ${shellWord(file)}\`, move it away if it is yours, then close again`,
      details: { file, isFile: false },
    });
  }
  return new SpexError("receipt_stuck", `the create receipt of session ${label} (${file}) could not be removed; nothing was changed`, {
    hint: `look at it with \`cat ${shellWord(file)}\` and at the permissions of its folder (\`ls -ld ${shellWord(store.receiptsDir)}\`); once it is removed, close again`,
    details: { file, isFile: true },
  });
}

function landReceipt(store: ProjectStore, receipt: CreateReceipt, durable: boolean): void {
  const file = receiptPath(store, receipt.id);
  try {
    // Only the first landing is fsynced: a later note lost to a power cut leaks a thing, never removes one.
    writeStoreFile(file, JSON.stringify(receipt, null, 2) + "\n", { durable });
  } catch (e) {
    const code = isSpexError(e) ? e.code : errnoCode(e);
    if (code === "unsafe_path" || code === "EISDIR" || code === "ENOTEMPTY" || code === "EEXIST") throw stuckReceipt(file, "is in the way (not a file)");
    throw e;
  }
}

export function writeReceipt(store: ProjectStore, r: { id: string; worktree: string; branch: string; made: MadeByCreate }): CreateReceipt {
  mkdirSync(store.receiptsDir, { recursive: true });
  const receipt: CreateReceipt = { ...r, made: { ...r.made }, owner: selfIdentity(), createdAt: new Date().toISOString() };
  landReceipt(store, receipt, true);
  return receipt;
}

/** Note what a step just made; `persist` while the receipt file is the create's only fence (before publication). */
export function noteMade(store: ProjectStore, receipt: CreateReceipt, made: MadeByCreate, persist: boolean): void {
  Object.assign(receipt.made, made);
  if (persist) landReceipt(store, receipt, false);
}

/** Note a step about to run (durably enough: before git may make anything). */
export function noteBegun(store: ProjectStore, receipt: CreateReceipt, begun: BegunByCreate): void {
  receipt.begun = { ...receipt.begun, ...begun };
  landReceipt(store, receipt, false);
}

/** A step that failed made nothing: its names leave the receipt, so no rollback takes what another made since. */
export function forgetBegun(store: ProjectStore, receipt: CreateReceipt, step: keyof BegunByCreate): void {
  if (!receipt.begun) return;
  delete receipt.begun[step];
  landReceipt(store, receipt, false);
}

/** Remove a receipt; false when it could not be removed (it stays, reported as stuck). */
export function retireReceipt(store: ProjectStore, id: string): boolean {
  try {
    rmSync(receiptPath(store, id), { force: true });
    return true;
  } catch {
    return false;
  }
}

/** Kill a tmux session by its id, only while it still has the name it was made with. */
function killMadeTmux(t: NonNullable<MadeByCreate["tmux"]>): boolean {
  const named = tmuxSync(t.socket, ["display-message", "-p", "-t", t.id, "#{session_name}"]);
  if (named.code !== 0 || named.stdout.trim() !== t.name) return false;
  return tmuxSync(t.socket, ["kill-session", "-t", t.id]).code === 0;
}

/**
 * Remove what the receipt says its create made, and nothing else. Each step
 * tolerates what is already gone; the receipt goes only when every step did.
 */
export async function rollBack(store: ProjectStore, r: CreateReceipt): Promise<string[]> {
  const { undoBranch, undoWorktree } = await undoSteps();
  const undone: string[] = [];
  const failed: string[] = [];
  const step = async (what: string, fn: () => Promise<boolean | void> | boolean | void) => {
    try {
      if ((await fn()) !== false) undone.push(what);
    } catch (e) {
      failed.push(`${what}: ${(e as Error).message}`);
    }
  };
  const made = r.made ?? {};
  // A receipt names things by path; the store's own parts of them must be this
  // session's, so a planted receipt cannot point a removal at any other folder.
  const ownDir = sessionPaths(store, r.id).dir;
  if (made.sessionDir !== undefined && made.sessionDir !== ownDir) failed.push(`session folder ${made.sessionDir}: not the folder of session ${r.id}`);
  const ownFiles = (made.files ?? []).filter((f) => dirname(f) === ownDir);
  if (ownFiles.length !== (made.files ?? []).length) failed.push(`files outside ${ownDir}: not removed`);
  // No tmux here means no tmux session to remove.
  if (made.tmux) await step(`tmux session ${made.tmux.name}`, () => killMadeTmux(made.tmux!));
  // The listing index before the record: no entry may speak for a record that is gone (lib/record/listing.ts).
  if (made.sessionDir === ownDir || ownFiles.length > 0) await step(`listing index entries of ${r.id}`, () => dropListingEntries(store.dir, r.id));
  if (made.sessionDir === ownDir) await step(`session folder ${ownDir}`, () => rmSync(ownDir, { recursive: true, force: true }));
  for (const file of ownFiles) await step(`file ${file}`, () => rmSync(file, { force: true }));
  // The worktree first: git deletes no branch a worktree has checked out.
  const begun = r.begun ?? {};
  const worktree = made.worktree ?? begun.worktree?.path;
  if (worktree) {
    const branch = begun.worktree?.branch ?? made.branch ?? r.branch;
    await step(`worktree ${worktree}`, () => undoWorktree(store.root, { path: worktree, branch, start: begun.branch?.start, made: made.worktree === worktree }));
  }
  // Copies of the main checkout's ignored files (secrets, often) never outlive a worktree that stays.
  const inWorktree = (f: string) => worktree !== undefined && f.startsWith(`${worktree}/`);
  for (const file of (made.included ?? []).filter(inWorktree)) {
    if (lstatOrAbsent(file)?.isFile()) await step(`included file ${file}`, () => rmSync(file, { force: true }));
  }
  const branch = made.branch ?? begun.branch?.name;
  if (branch) await step(`branch ${branch}`, () => undoBranch(store.root, { name: branch, start: begun.branch?.start, made: made.branch === branch }));
  if (failed.length > 0) throw stuckReceipt(receiptPath(store, r.id), `could not be rolled back: ${failed.join("; ")}`);
  if (!retireReceipt(store, r.id)) throw stuckReceipt(receiptPath(store, r.id), "could not be removed");
  return undone;
}

/**
 * The error a failed create reports once its rollback has run: the session it
 * names no longer exists, so its hint must not send anyone to resume or close
 * it. A rollback that left something says what.
 */
export function afterRollBack(error: unknown, rollback: SpexError | undefined): unknown {
  if (!(error instanceof SpexError)) return error;
  const next = error.code === "launch_failed" ? "fix what the screen shows, then create the session again" : error.hint;
  const hint = rollback
    ? `the create could not be fully rolled back (${rollback.message}); ${rollback.hint}`
    : `the session was rolled back, nothing of it is left${next ? `; ${next}` : ""}`;
  return new SpexError(error.code, error.message, {
    hint,
    details: { ...error.details, rolledBack: !rollback },
    exitCode: error.exitCode,
    httpStatus: error.httpStatus,
  });
}

export interface ReceiptReadings {
  receipts: CreateReceipt[];
  /** Receipts that can be neither read nor removed (a folder in the file's place, no permission). */
  stuck: SpexError[];
}

export function readReceipts(store: ProjectStore): ReceiptReadings {
  let names: string[];
  try {
    names = readdirSync(store.receiptsDir);
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return { receipts: [], stuck: [] };
    throw e;
  }
  const out: ReceiptReadings = { receipts: [], stuck: [] };
  for (const n of names) {
    // A receipt is named by its session's id and names that id: any other file is never acted on.
    if (!n.endsWith(".json") || !isSessionId(n.slice(0, -5))) continue;
    const file = join(store.receiptsDir, n);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      // Retired between the listing and the read (its create finished meanwhile): nothing left to settle.
      if (errnoCode(e) === "ENOENT") continue;
      out.stuck.push(stuckReceipt(file, `cannot be read (${errnoCode(e) ?? (e as Error).message})`));
      continue;
    }
    try {
      const r = JSON.parse(text) as CreateReceipt;
      if (r.id === n.slice(0, -5)) out.receipts.push(r);
    } catch {
      // Receipts land by rename, so unparseable bytes were never a receipt this spex acted on.
      try {
        rmSync(file, { force: true });
      } catch (e) {
        out.stuck.push(stuckReceipt(file, `is unparseable and cannot be removed (${errnoCode(e) ?? (e as Error).message})`));
      }
    }
  }
  return out;
}

export function listReceipts(store: ProjectStore): CreateReceipt[] {
  return readReceipts(store).receipts;
}

export interface Recovery {
  recovered: { id: string; undone: string[] }[];
  /** Receipts this pass could not settle: reported (`receipt_stuck`), never in the way of other sessions. */
  stuck: SpexError[];
}

/**
 * Roll back creates whose process died before publishing. A receipt whose
 * record was published is only stale: the record is the durable fence, so
 * only the receipt goes.
 */
export async function recoverAbandonedCreates(store: ProjectStore): Promise<Recovery> {
  const { receipts, stuck } = readReceipts(store);
  const recovered: Recovery["recovered"] = [];
  for (const r of receipts) {
    if (!r.owner || ownerAlive(r.owner)) continue;
    // A step the dead create began may still be running (git is its child, not killed with it): settled once it ends.
    const unsettled = (r.begun?.worktree && !r.made?.worktree) || (r.begun?.branch && !r.made?.branch);
    if (unsettled && (await undoSteps()).createStillRunning(r.id, r.createdAt, r.begun?.worktree?.path)) continue;
    try {
      const reading = readSession(store, r.id);
      if (reading.kind !== "absent") {
        if (!retireReceipt(store, r.id)) stuck.push(stuckReceipt(receiptPath(store, r.id), "could not be removed"));
        continue;
      }
      recovered.push({ id: r.id, undone: await rollBack(store, r) });
    } catch (e) {
      stuck.push(e instanceof SpexError && e.code === "receipt_stuck" ? e : stuckReceipt(receiptPath(store, r.id), `could not be settled: ${(e as Error).message}`));
    }
  }
  return { recovered, stuck };
}
