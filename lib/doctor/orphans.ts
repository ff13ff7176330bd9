// What a project left over, each with the command that removes it. doctor only
// reports: the person reads the command and runs it (or not).
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { SpexConfig } from "../config";
import { readReceipts } from "../create/receipt";
import { ownerAlive } from "../proc";
import { readAll } from "../sessions";
import { readAllTerminals } from "../terminals";
import type { ProjectStore } from "../store";
import { spexSocket } from "../tmux";
import { shellWord } from "../tmux/quote";
import { listWorktrees } from "../teardown/git";
import { type Residues, observeResidues, quarantineCommand } from "../teardown/residues";
import { projectTmuxSessions } from "./tmux";

export interface Orphans {
  worktrees: string[];
  tmuxSessions: string[];
  retiredRecords: string[];
  corruptRecords: string[];
  abandonedCreates: string[];
}

export type OrphanKind = keyof Orphans;

/** One orphan (as listed under its kind) and the command that removes it. */
export interface Cleanup {
  kind: OrphanKind;
  orphan: string;
  command: string;
}

const NO_RESIDUES: Residues = { harness: null, thread: null, worktree: null, branch: null, tmuxSession: null, leaf: null };

export function noOrphans(): Orphans {
  return { worktrees: [], tmuxSessions: [], retiredRecords: [], corruptRecords: [], abandonedCreates: [] };
}

function registeredWorktrees(root: string): Set<string> {
  try {
    return new Set(listWorktrees(root).map((w) => w.path));
  } catch {
    return new Set();
  }
}

/** `tmux` may be missing: then its sessions are not scanned, and nothing else asks it. */
export function findOrphans(store: ProjectStore, config: SpexConfig, tmux: boolean): { orphans: Orphans; cleanup: Cleanup[] } {
  const orphans = noOrphans();
  const cleanup: Cleanup[] = [];
  const add = (kind: OrphanKind, orphan: string, command: string) => {
    orphans[kind].push(orphan);
    cleanup.push({ kind, orphan, command });
  };
  const readings = readAll(store);
  const known = new Set(readings.flatMap((r) => (r.kind === "ok" ? [r.record.worktree_path] : [])));
  const names = new Set(readings.flatMap((r) => (r.kind === "ok" ? [r.record.tmux_session] : [])));
  // A terminal's tmux session is tagged as this project's too: its record makes it no orphan.
  for (const t of readAllTerminals(store)) if (t.kind === "ok") names.add(t.record.tmux_session);

  if (existsSync(config.worktreeRoot)) {
    const registered = registeredWorktrees(store.root);
    for (const name of readdirSync(config.worktreeRoot)) {
      const path = join(config.worktreeRoot, name);
      if (known.has(path)) continue;
      // git refuses to remove a worktree with changes; `--force` after that throws them away.
      add("worktrees", path, registered.has(path) ? `git -C ${shellWord(store.root)} worktree remove ${shellWord(path)}` : `rm -rf ${shellWord(path)}`);
    }
  }
  if (tmux) {
    const socket = spexSocket(config.tmuxSocket);
    for (const name of projectTmuxSessions(store, socket).filter((n) => !names.has(n))) {
      add("tmuxSessions", name, `tmux ${socket ? `-L ${shellWord(socket)} ` : ""}kill-session -t ${shellWord(`=${name}`)}`);
    }
  }
  for (const r of readings) {
    if (r.kind === "ok" && r.retired) add("retiredRecords", r.id, `spex session close ${r.id}`);
    if (r.kind === "corrupt") {
      const residues = tmux ? observeResidues(store, r.id, r.file) : NO_RESIDUES;
      add("corruptRecords", `${r.id}: ${r.error}`, quarantineCommand(r.id, residues));
    }
  }
  const receipts = readReceipts(store);
  for (const r of receipts.receipts.filter((x) => x.owner && !ownerAlive(x.owner))) {
    // Any create or ls rolls back what a dead create made, by its receipt.
    add("abandonedCreates", `${r.id} (worktree ${r.worktree}, branch ${r.branch})`, "spex session ls");
  }
  for (const e of receipts.stuck) {
    const file = typeof e.details.file === "string" ? e.details.file : "";
    add("abandonedCreates", `${e.message} [${e.code}]`, file ? `rm -rf ${shellWord(file)}` : e.hint);
  }
  return { orphans, cleanup };
}
