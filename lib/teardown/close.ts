// close = stop + remove worktree + delete branch + remove the record (DESIGN.md
// §6). Every refusal happens before the first signal. The record lock and the
// branch/worktree resource locks are held from the final checks through the
// tmux kill, its no-pane proof and every deletion; the record goes last, so
// any failure keeps the row.
import { existsSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../config";
import { detectMainBranch } from "../git/main-branch";
import { SpexError } from "../errors";
import { withLock, withLocks } from "../lock";
import { type SessionRecord, dropListingEntries, fsyncDir, readSession, refuseUnusable, writeHeldRecord } from "../record";
import { type ProjectStore, recordLockPath, resourceLockPaths, sessionPaths } from "../store";
import { receiptInTheWay, retireReceipt } from "../create/receipt";
import { branchExists, deleteBranch, listWorktrees, pruneWorktrees, removeWorktree, unmergedCommits } from "./git";
import { sessionWork } from "./work";
import { type EndOptions, probe } from "./leaf";
import { type CloseFacts, type ClosePlan, planClose } from "./plan";
import { corruptRefusal } from "./residues";
import { samePath } from "./paths";
import { sessionProcesses } from "./strays";
import { type LeafStop, type RuntimeStop, assertNotRelaunched, endTmuxSession, refuseUnprovable, stopRecordedLeaf } from "./runtime";
import { revokeSender } from "../comms/revoke";
import { finishInterruptedCloses } from "./interrupted";
import { lastMergeEvent } from "../comms/timeline";
import { type TerminalClose, closeSessionTerminals } from "../terminals";
import { type FreedSlot, drainAfterFreeing } from "../create/launch-queue";
import { randomHex } from "../hash";
import { faultPoint } from "../faults";
import { whichSync } from "../proc/which";
import { tmuxMissing } from "../tmux";
import { TEARDOWN_RAN, type TeardownOutcome, runTeardown, teardownFailed } from "../workspace/teardown";
import { unchangedIncluded } from "../workspace/include-record";
import { sandboxAvailability } from "../workspace/sandbox";

export interface CloseOptions {
  force?: boolean;
  /** Told when the agent has not ended after a moment (the command prints it on a terminal). */
  onWait?: EndOptions["onWait"];
}

export interface CloseResult extends RuntimeStop, FreedSlot {
  id: string;
  forced: boolean;
  retired: boolean;
  worktree: "removed" | "pruned" | "absent";
  branch: "deleted" | "absent" | "kept";
  /** What a forced close threw away. */
  discarded: ClosePlan["discards"];
  /** The terminals opened beside the session, closed with it. */
  terminals: TerminalClose[];
  senderRevoked: true;
  /** The project's teardown (lib/workspace), run before the worktree went; null when none ran. */
  teardown: TeardownOutcome | null;
}

/** The worktree's changes; a sandboxed one's are read in a sandbox, and a forced close where none can run skips them. */
function closeChanges(store: ProjectStore, record: SessionRecord, force: boolean) {
  const sandboxed = !!record.sandbox;
  if (sandboxed && force && !sandboxAvailability().usable) return [];
  return sessionWork(store.root, record.worktree_path, record.harness, record.directory, unchangedIncluded(store, record.session_id, record.worktree_path), sandboxed);
}

export function gatherCloseFacts(store: ProjectStore, record: SessionRecord, retired: boolean, force = false): CloseFacts {
  const entries = listWorktrees(store.root);
  const main = entries[0];
  // Unmerged means "not on the branch sessions fork from" (lib/git/main-branch), not on whatever the main checkout has out.
  const mainBranch = detectMainBranch(store.root, loadConfig(store.root).mainBranch);
  const mainRef = mainBranch ? `refs/heads/${mainBranch}` : main?.head || "HEAD";
  const wt = record.worktree_path ? entries.find((e) => samePath(e.path, record.worktree_path)) : undefined;
  const ref = `refs/heads/${record.branch}`;
  const holders = record.branch ? entries.filter((e) => e.branch === ref) : [];
  const exists = record.branch !== "" && (holders.length > 0 || branchExists(store.root, record.branch));
  const changes = !retired && wt ? closeChanges(store, record, force) : [];
  return {
    worktreePath: record.worktree_path,
    branch: record.branch,
    retired,
    worktreeRegistered: wt !== undefined,
    worktreeLocked: wt?.locked ?? false,
    changes,
    branchExists: exists,
    branchCheckedOutAt: holders.filter((e) => e !== wt).map((e) => e.path),
    unmerged: exists ? unmergedCommits(store.root, mainRef, record.branch, 50, lastMergeEvent(store, record.session_id)?.branchHead) : { commits: [], more: false },
    mainRef,
  };
}

/**
 * Drop the session folder: one rename out of sight (the commit point), the
 * sender's revocation, then the delete. A close killed after the rename
 * leaves the hidden folder, which finishInterruptedCloses completes.
 */
function removeSessionFolder(store: ProjectStore, id: string): void {
  const dir = sessionPaths(store, id).dir;
  const gone = join(store.sessionsDir, `.closed-${id}-${randomHex(4)}`);
  // The listing index first: a kill before the rename leaves a record with no entries, which a listing reads whole.
  try {
    dropListingEntries(store.dir, id);
  } catch {
    // an entry left behind names a folder that is about to go: readers list the sessions folder first
  }
  renameSync(dir, gone);
  fsyncDir(store.sessionsDir);
  faultPoint("close-record-hidden");
  // Still under the record lock: a stale process of the closed session must not append after close returns (DESIGN.md §1.11).
  revokeSender(store, id);
  faultPoint("close-sender-revoked");
  rmSync(gone, { recursive: true, force: true });
}

export async function closeSession(store: ProjectStore, id: string, opts: CloseOptions = {}): Promise<CloseResult> {
  await finishInterruptedCloses(store);
  const first = readSession(store, id);
  if (first.kind === "corrupt") {
    // Observe under the lock so no writer is caught half-way, then refuse loudly.
    await withLock(recordLockPath(store, id), () => {
      const again = readSession(store, id);
      if (again.kind === "corrupt") throw corruptRefusal(store, again, "close");
    });
    return closeSession(store, id, opts);
  }
  refuseUnusable(first, { allowRetired: true });
  // Its tmux session is ended under the locks, after the agent is stopped: without tmux that
  // step fails, so it refuses here, before the first signal, not with the agent already killed.
  if (first.record.tmux_session && !whichSync("tmux")) throw tmuxMissing("then close again: nothing was stopped or removed");
  const force = !!opts.force;
  const leaf = refuseUnprovable(store, id, first.record);
  let leafStop: LeafStop = { leaf, outcome: leaf.source === "none" ? "none" : "dead", others: [] };
  if (probe(leaf) === "owned" || sessionProcesses(store, id, first.record).length > 0) {
    // Every refusal comes before the first signal: a dirty or unmerged session keeps running.
    planClose(id, gatherCloseFacts(store, first.record, first.retired, force), force);
    // Outside the locks, so the agent's own exit hooks can still write its record (see runtime.ts).
    leafStop = stopRecordedLeaf(store, id, first.record, opts.onWait);
  }
  faultPoint("close-agent-stopped");
  const locks = [recordLockPath(store, id), ...resourceLockPaths(store, first.record)];
  const closed = await withLocks<Omit<CloseResult, keyof FreedSlot>>(
    locks,
    async () => {
      const reading = readSession(store, id);
      if (reading.kind === "corrupt") throw corruptRefusal(store, reading, "close");
      // Present when this close started: another close (or a quarantine) took it while this one waited.
      if (reading.kind === "absent") {
        throw new SpexError("record_absent", `session ${id.slice(0, 8)} was closed meanwhile by another command; nothing more to do`, {
          hint: "`spex session ls --all` lists the sessions left",
          httpStatus: 404,
        });
      }
      refuseUnusable(reading, { allowRetired: true });
      const record = reading.record;
      if (record.branch !== first.record.branch || record.worktree_path !== first.record.worktree_path) {
        throw new SpexError("record_changed", `session ${id.slice(0, 8)} changed its branch or worktree while close was starting; nothing was changed`, {
          hint: "run close again",
        });
      }
      assertNotRelaunched(store, id, first.record, record);
      // Decided again under the locks: this plan is the one carried out.
      const plan = planClose(id, gatherCloseFacts(store, record, reading.retired, force), force);
      // A create receipt whose retirement failed must not outlive the record: it would regain
      // cleanup authority over a later session of the same names (a keyed create reuses its id).
      retireReceipt(store, id);
      const stuck = receiptInTheWay(store, id);
      if (stuck) throw stuck;
      const tmux = endTmuxSession(id, record);
      faultPoint("close-tmux-ended");
      // Before the worktree goes: a shell left running in it would hold a folder that no longer exists.
      const terminals = closeSessionTerminals(store, id);
      // The project's teardown, in the worktree it is about to lose: a failure refuses a plain close, never a forced one.
      const teardown = await runTeardown(store, record, plan.worktree === "remove");
      // An interrupted teardown stops a forced close too: whoever pressed Ctrl-C asked for nothing more to go.
      if (teardown && !teardown.ok && (!force || teardown.interrupted)) throw teardownFailed(id, teardown);
      // Written before the worktree goes, through the one writer: a close killed from here on leaves
      // a record that says the teardown ran, and the next close does not run it again.
      if (teardown?.ok && record.teardown !== TEARDOWN_RAN) writeHeldRecord(reading, { teardown: TEARDOWN_RAN });
      faultPoint("close-teardown-ran");
      if (plan.worktree === "remove") removeWorktree(store.root, record.worktree_path, force);
      if (plan.worktree === "prune") pruneWorktrees(store.root);
      faultPoint("close-worktree-removed");
      if (plan.branch === "delete") deleteBranch(store.root, record.branch);
      faultPoint("close-branch-deleted");
      removeSessionFolder(store, id);
      return {
        id,
        leaf: leafStop.outcome,
        pid: leafStop.leaf.pid || null,
        tmux,
        others: leafStop.others,
        forced: force,
        retired: reading.retired,
        worktree: plan.worktree === "remove" ? "removed" : plan.worktree === "prune" ? "pruned" : "absent",
        branch: plan.branch === "delete" ? "deleted" : plan.branch === "keep" ? "kept" : "absent",
        discarded: plan.discards,
        terminals,
        senderRevoked: true,
        teardown,
      };
    },
    { purpose: `close ${id}` },
  );
  return { ...closed, ...(await drainAfterFreeing(store)) };
}

