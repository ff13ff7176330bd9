// A corrupt record proves nothing, so stop/close refuse it. To make the
// refusal useful they report what the bytes seem to name (worktree, branch,
// tmux session, pid) and whether those still exist. The names are only ever
// reported and observed, never acted on.
import { existsSync } from "node:fs";
import { SpexError } from "../errors";
import { processIdentity } from "../proc";
import { type RecordReading, readOwnBytes } from "../record";
import type { ProjectStore } from "../store";
import { sessionPaths } from "../store";
import { exactSession, spexSocket, tmuxSync } from "../tmux";
import { shellWord } from "../tmux/quote";
import { git } from "./git";
import { readAgentPidFile } from "./leaf";

const FIELDS = ["harness", "harness_session_id", "worktree_path", "branch", "tmux_socket", "tmux_session", "agent_pid", "agent_start"] as const;
export type CandidateField = (typeof FIELDS)[number];

/**
 * Pull `"field": "value"` pairs out of unparseable text. Tolerates truncation
 * and garbage around them; a value cut off mid-string is dropped.
 */
export function candidateNames(text: string): Partial<Record<CandidateField, string>> {
  const out: Partial<Record<CandidateField, string>> = {};
  for (const field of FIELDS) {
    const m = new RegExp(`"${field}"\\s*:\\s*"((?:[^"\\\\\\n]|\\\\.)*)"`).exec(text);
    if (!m) continue;
    try {
      out[field] = JSON.parse(`"${m[1]}"`) as string;
    } catch {
      // An escape the JSON grammar rejects: not a usable name.
    }
  }
  return out;
}

export interface Residues {
  harness: string | null;
  thread: string | null;
  worktree: { path: string; present: boolean } | null;
  branch: { name: string; present: boolean } | null;
  tmuxSession: { name: string; socket: string; present: boolean } | null;
  leaf: { pid: number; source: "agent.pid" | "record bytes"; alive: boolean } | null;
}

// Only the folder's own regular file is read: a link or a directory names nothing of this session.
function readBytes(file: string): string {
  const got = readOwnBytes(file);
  return "bytes" in got ? got.bytes.toString("utf8") : "";
}

/** What a corrupt record's bytes name (nothing when they say they are another session's), unobserved. */
export function residueNames(id: string, file: string): Partial<Record<CandidateField, string>> {
  const text = readBytes(file);
  // Bytes that say they are another session's record name that session's things, not this one's.
  const claimed = /"session_id"\s*:\s*"([^"]*)"/.exec(text)?.[1];
  return claimed !== undefined && claimed !== id ? {} : candidateNames(text);
}

/** Observe (read-only) what a corrupt record's bytes name. */
export function observeResidues(store: ProjectStore, id: string, file: string): Residues {
  const names = residueNames(id, file);
  const wt = names.worktree_path;
  const br = names.branch;
  const tm = names.tmux_session;
  const socket = names.tmux_socket ?? spexSocket();
  const fromFile = readAgentPidFile(sessionPaths(store, id).agentPid);
  const pid = fromFile?.pid ?? (Number(names.agent_pid) || 0);
  return {
    harness: names.harness || null,
    thread: names.harness_session_id || null,
    worktree: wt ? { path: wt, present: existsSync(wt) } : null,
    branch: br ? { name: br, present: git(store.root, ["for-each-ref", "--format=%(refname)", `refs/heads/${br}`]).stdout.trim() === `refs/heads/${br}` } : null,
    tmuxSession: tm ? { name: tm, socket, present: tmuxSync(socket, ["has-session", "-t", exactSession(tm)]).code === 0 } : null,
    leaf: pid ? { pid, source: fromFile ? "agent.pid" : "record bytes", alive: processIdentity(pid) !== undefined } : null,
  };
}

function describe(r: Residues): string {
  const parts: string[] = [];
  if (r.leaf) parts.push(`pid ${r.leaf.pid} ${r.leaf.alive ? "alive" : "gone"}`);
  if (r.tmuxSession) parts.push(`tmux session ${r.tmuxSession.name} ${r.tmuxSession.present ? "present" : "gone"}`);
  if (r.worktree) parts.push(`worktree ${r.worktree.path} ${r.worktree.present ? "present" : "gone"}`);
  if (r.branch) parts.push(`branch ${r.branch.name} ${r.branch.present ? "present" : "gone"}`);
  return parts.length ? parts.join(", ") : "no names could be read from the bytes";
}

/** The quarantine command for a corrupt record, with the names its bytes gave (placeholders where none). */
export function quarantineCommand(id: string, r: Residues): string {
  const q = shellWord;
  const args = [
    `--adapter ${q(r.harness ?? "<adapter>")}`,
    r.thread ? `--thread ${q(r.thread)}` : "",
    `--tmux ${q(r.tmuxSession?.name ?? "<tmux session>")}`,
    `--worktree ${q(r.worktree?.path ?? "<worktree>")}`,
    `--branch ${q(r.branch?.name ?? "<branch>")}`,
  ].filter(Boolean);
  return `spex session quarantine ${id} ${args.join(" ")}`;
}

function quarantineHint(id: string, r: Residues): string {
  return `nothing was signalled or removed; end those residues yourself, then file the record away with \`${quarantineCommand(id, r)}\``;
}

/** The loud refusal for stop/close on a corrupt record, with the residues it observed. */
export function corruptRefusal(store: ProjectStore, reading: Extract<RecordReading, { kind: "corrupt" }>, verb: string): SpexError {
  const residues = observeResidues(store, reading.id, reading.file);
  return new SpexError(
    "record_corrupt",
    `cannot ${verb} session ${reading.id}: its record ${reading.file} is corrupt (${reading.error}); residues: ${describe(residues)}`,
    { hint: quarantineHint(reading.id, residues), details: { file: reading.file, parseError: reading.error, residues } },
  );
}
