// Private pre-publication create receipts: what a create is about to make,
// written before any git mutation, so a create killed at any step can be
// rolled back by the next spex command.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { errnoCode } from "../errors";
import { ownerAlive, selfIdentity, type ProcessIdentity } from "../proc";
import { readSession } from "../record";
import { type ProjectStore, sessionPaths } from "../store";
import { deleteBranch, branchExists, pruneWorktrees, removeWorktree } from "../git";
import { killSession } from "../tmux";
import { fsyncDir } from "../record";

export interface CreateReceipt {
  id: string;
  worktree: string;
  branch: string;
  tmuxSocket: string;
  tmuxSession: string;
  owner: ProcessIdentity;
  createdAt: string;
}

export function receiptPath(store: ProjectStore, id: string): string {
  return join(store.receiptsDir, `${id}.json`);
}

export function writeReceipt(store: ProjectStore, r: Omit<CreateReceipt, "owner" | "createdAt">): CreateReceipt {
  mkdirSync(store.receiptsDir, { recursive: true });
  const receipt: CreateReceipt = { ...r, owner: selfIdentity(), createdAt: new Date().toISOString() };
  const file = receiptPath(store, r.id);
  writeFileSync(`${file}.tmp`, JSON.stringify(receipt, null, 2) + "\n");
  renameSync(`${file}.tmp`, file);
  fsyncDir(store.receiptsDir);
  return receipt;
}

export function retireReceipt(store: ProjectStore, id: string): void {
  rmSync(receiptPath(store, id), { force: true });
}

/** Remove everything a receipt names (each step tolerates what is already gone). */
export async function rollBack(store: ProjectStore, r: CreateReceipt): Promise<string[]> {
  const undone: string[] = [];
  try {
    if (r.tmuxSession && killSession(r.tmuxSocket, r.tmuxSession).code === 0) undone.push(`tmux session ${r.tmuxSession}`);
  } catch {
    // No tmux here means no tmux session to remove: the rest of the rollback must still run.
  }
  const dir = sessionPaths(store, r.id).dir;
  if (existsSync(dir)) {
    rmSync(dir, { recursive: true, force: true });
    undone.push(`session folder ${dir}`);
  }
  if (existsSync(r.worktree)) {
    try {
      await removeWorktree(store.root, r.worktree);
    } catch {
      rmSync(r.worktree, { recursive: true, force: true });
    }
    undone.push(`worktree ${r.worktree}`);
  }
  await pruneWorktrees(store.root).catch(() => undefined);
  if (r.branch && (await branchExists(store.root, r.branch))) {
    await deleteBranch(store.root, r.branch);
    undone.push(`branch ${r.branch}`);
  }
  retireReceipt(store, r.id);
  return undone;
}

export function listReceipts(store: ProjectStore): CreateReceipt[] {
  let names: string[];
  try {
    names = readdirSync(store.receiptsDir);
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return [];
    throw e;
  }
  const out: CreateReceipt[] = [];
  for (const n of names) {
    if (!n.endsWith(".json")) continue;
    try {
      out.push(JSON.parse(readFileSync(join(store.receiptsDir, n), "utf8")) as CreateReceipt);
    } catch {
      // A torn receipt was never acted on: its writer died before any git step.
      rmSync(join(store.receiptsDir, n), { force: true });
    }
  }
  return out;
}

/**
 * Roll back creates whose process died before publishing. A receipt whose
 * record was published is only stale: the record is the durable fence, so
 * only the receipt goes.
 */
export async function recoverAbandonedCreates(store: ProjectStore): Promise<{ id: string; undone: string[] }[]> {
  const recovered: { id: string; undone: string[] }[] = [];
  for (const r of listReceipts(store)) {
    if (ownerAlive(r.owner)) continue;
    const reading = readSession(store, r.id);
    if (reading.kind !== "absent") {
      retireReceipt(store, r.id);
      continue;
    }
    recovered.push({ id: r.id, undone: await rollBack(store, r) });
  }
  return recovered;
}
