// What a project left over, each with advice: the command that removes it when
// spex can prove nothing of anyone's work goes with it, else the command that
// shows it and why to look first. doctor only reports: the person reads the
// command and runs it (or not).
import type { SpexConfig } from "../config";
import { readReceipts } from "../create/receipt";
import { detectMainBranch } from "../git/main-branch";
import { ownerAlive } from "../proc";
import { readAll } from "../sessions";
import { interruptedTerminalCloses, readAllTerminals } from "../terminals";
import type { ProjectStore } from "../store";
import { spexSocket } from "../tmux";
import { shellWord } from "../tmux/quote";
import { type Residues, observeResidues, quarantineCommand } from "../teardown/residues";
import { interruptedCloses } from "../teardown/interrupted";
import { type Claim, claimOnTmux, corruptClaims } from "./claims";
import { adviseFolders } from "./folders";
import { projectTmuxSessions } from "./tmux";

export interface Orphans {
  worktrees: string[];
  tmuxSessions: string[];
  retiredRecords: string[];
  corruptRecords: string[];
  abandonedCreates: string[];
  /** Hidden `.closed-…` leftovers of session and terminal closes killed after their record went out of sight. */
  interruptedCloses: string[];
}

export type OrphanKind = keyof Orphans;

/** One orphan (as listed under its kind) and what to do about it. */
export interface Cleanup {
  kind: OrphanKind;
  orphan: string;
  /** `remove`: the command removes it and nothing of anyone's work; `inspect`: the command only shows it. */
  action: "remove" | "inspect";
  command: string;
  /** Why to inspect rather than remove ("" for `remove`). */
  reason: string;
}

const NO_RESIDUES: Residues = { harness: null, thread: null, worktree: null, branch: null, tmuxSession: null, leaf: null };

export function noOrphans(): Orphans {
  return { worktrees: [], tmuxSessions: [], retiredRecords: [], corruptRecords: [], abandonedCreates: [], interruptedCloses: [] };
}

function mainBranchOr(root: string, configured: string): string {
  try {
    return detectMainBranch(root, configured);
  } catch {
    return "";
  }
}

/** `tmux` may be missing: then its sessions are not scanned, and nothing else asks it. */
export function findOrphans(store: ProjectStore, config: SpexConfig, tmux: boolean): { orphans: Orphans; cleanup: Cleanup[] } {
  const orphans = noOrphans();
  const cleanup: Cleanup[] = [];
  const add = (kind: OrphanKind, orphan: string, command: string, reason = "") => {
    orphans[kind].push(orphan);
    cleanup.push({ kind, orphan, action: reason ? "inspect" : "remove", command, reason });
  };
  const readings = readAll(store);
  const known = new Set(readings.flatMap((r) => (r.kind === "ok" ? [r.record.worktree_path] : [])));
  const names = new Set(readings.flatMap((r) => (r.kind === "ok" ? [r.record.tmux_session] : [])));
  // A terminal's tmux session is tagged as this project's too: its record makes it no orphan.
  for (const t of readAllTerminals(store)) if (t.kind === "ok") names.add(t.record.tmux_session);
  const receipts = readReceipts(store);
  // A create under way (its process alive) is making its worktree right now.
  const making: Claim[] = receipts.receipts
    .filter((r) => r.owner && ownerAlive(r.owner))
    .map((r) => ({ reason: `a create still running (session ${r.id}) is making it`, worktree: r.worktree, suffixes: [] }));
  const claims = [...corruptClaims(readings), ...making];

  for (const a of adviseFolders({ root: store.root, worktreeRoot: config.worktreeRoot, mainBranch: mainBranchOr(store.root, config.mainBranch), known, claims })) {
    add("worktrees", a.path, a.command, a.reason);
  }
  if (tmux) {
    const socket = spexSocket(config.tmuxSocket);
    const L = socket ? `-L ${shellWord(socket)} ` : "";
    for (const name of projectTmuxSessions(store, socket).filter((n) => !names.has(n))) {
      const claim = claimOnTmux(claims, name);
      if (claim) add("tmuxSessions", name, `tmux ${L}list-panes -s -t ${shellWord(`=${name}:`)}`, claim.reason);
      else add("tmuxSessions", name, `tmux ${L}kill-session -t ${shellWord(`=${name}`)}`);
    }
  }
  for (const r of readings) {
    if (r.kind === "ok" && r.retired) add("retiredRecords", r.id, `spex session close ${r.id}`);
    if (r.kind === "corrupt") {
      const residues = tmux ? observeResidues(store, r.id, r.file) : NO_RESIDUES;
      add("corruptRecords", `${r.id}: ${r.error}`, quarantineCommand(r.id, residues));
    }
  }
  for (const r of receipts.receipts.filter((x) => x.owner && !ownerAlive(x.owner))) {
    // Any create or ls rolls back what a dead create made, by its receipt.
    add("abandonedCreates", `${r.id} (worktree ${r.worktree}, branch ${r.branch})`, "spex session ls");
  }
  for (const e of receipts.stuck) {
    // Shown, never removed: a receipt spex could not settle still names what its create made, and a
    // folder or link where a receipt belongs is not spex's at all (DESIGN.md §14).
    const file = typeof e.details.file === "string" ? e.details.file : "";
    const isFile = e.details.isFile === true;
    const command = !file ? "spex session ls" : isFile ? `cat ${shellWord(file)}` : `ls -la ${shellWord(file)}`;
    const reason = isFile
      ? "a create receipt spex could not settle: it names what its create made; remove it by hand once none of that is needed"
      : "it is not a receipt spex wrote (a folder or a link where one belongs): spex leaves it alone";
    add("abandonedCreates", `${e.message} [${e.code}]`, command, reason);
  }
  // Finished by spex's own close (which asks again under the lock), never by hand: a folder planted
  // beside a live session of the same id is no close's, and removing it is not spex's advice to give.
  for (const c of interruptedCloses(store)) {
    if (c.state === "unfinished") add("interruptedCloses", c.path, `spex session close ${c.id}`);
    if (c.state === "not_ours") add("interruptedCloses", c.path, `ls -la ${shellWord(c.path)}`, `session ${c.id} is still there, so no close of spex left this folder: it was put in the store by hand or by another program`);
  }
  for (const c of interruptedTerminalCloses(store)) {
    if (c.state === "unfinished") add("interruptedCloses", c.path, `spex terminal close ${c.id}`);
    else add("interruptedCloses", c.path, `ls -la ${shellWord(c.path)}`, `no terminal close of spex left this: terminal ${c.id} still has its record, or it is a folder`);
  }
  return { orphans, cleanup };
}
