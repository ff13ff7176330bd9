// Bringing a session's usage up to date: find its transcript by the native
// id (once: the path is remembered), then read only the bytes past the
// remembered offset, whole lines only. A file that shrank or was replaced
// (another inode) is read again from its start. Nothing changed: no lock, no
// write, only a stat per file. Changes are made under the session's usage
// lock, so two readers never count one line twice.
import { closeSync, fstatSync, openSync, readSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { withLock } from "../../lock";
import type { SessionRecord } from "../../record";
import type { ProjectStore } from "../../store";
import { type Harness, emptySource, parseLines } from "./parse";
import { type UsageFile, type UsageSource, readUsage, writeUsage } from "./store";
import { fileFacts, findTranscript } from "./transcripts";

const CHUNK = 1 << 20;

export function isUsageHarness(h: string): h is Harness {
  return h === "claude" || h === "codex" || h === "gemini";
}

export function usageLockPath(store: ProjectStore, id: string): string {
  return join(store.locksDir, `${id}.usage.lock`);
}

/** Read a file's bytes from `source.offset` to its end, counting whole lines; true when something was read. */
function readIncrement(source: UsageSource): boolean {
  let fd: number;
  try {
    fd = openSync(source.file, "r");
  } catch {
    return false; // gone: what it said stays counted
  }
  try {
    const st = fstatSync(fd);
    if (st.ino !== source.ino || st.size < source.offset) {
      // Replaced or rewritten: count it again from its first byte.
      source.offset = 0;
      source.ino = st.ino;
      source.state = emptySource();
    }
    if (st.size === source.offset) return false;
    let pos = source.offset;
    let carry = "";
    const buf = Buffer.alloc(Math.min(CHUNK, st.size - pos));
    while (pos < st.size) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, st.size - pos), pos);
      if (n <= 0) break;
      pos += n;
      const text = carry + buf.subarray(0, n).toString("utf8");
      const cut = text.lastIndexOf("\n");
      if (cut < 0) {
        carry = text;
        continue;
      }
      parseLines(source.harness, text.slice(0, cut + 1), source.state);
      carry = text.slice(cut + 1);
    }
    // A line still being written stays for the next read.
    const consumed = pos - Buffer.byteLength(carry);
    const moved = consumed !== source.offset;
    source.offset = consumed;
    return moved;
  } finally {
    closeSync(fd);
  }
}

/** Claude Code files a subagent's turns beside the conversation: <project>/<id>/subagents/…/agent-*.jsonl. */
function claudeSubagentFiles(main: string, nativeId: string): string[] {
  const dir = join(dirname(main), nativeId, "subagents");
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true }) as string[];
  } catch {
    return [];
  }
  return names.filter((n) => n.endsWith(".jsonl")).map((n) => join(dir, n)).sort();
}

function newSource(harness: Harness, nativeId: string, file: string): UsageSource {
  return { harness, nativeId, file, offset: 0, ino: fileFacts(file)?.ino ?? 0, state: emptySource() };
}

/** The sources the record's conversation should have that the file does not list yet. */
function missingSources(usage: UsageFile, record: SessionRecord, env: NodeJS.ProcessEnv | undefined, deep: boolean): UsageSource[] {
  const harness = record.harness;
  if (!isUsageHarness(harness) || !record.harness_session_id) return [];
  const known = new Set(usage.sources.map((s) => s.file));
  const out: UsageSource[] = [];
  const source = usage.sources.find((s) => s.nativeId === record.harness_session_id && s.harness === harness);
  let main = source?.file;
  if (!main) {
    const cwd = record.directory ? join(record.worktree_path, record.directory) : record.worktree_path;
    main = findTranscript({ harness, nativeId: record.harness_session_id, cwd, createdAt: record.createdAt, env, deep });
    if (main && !known.has(main)) out.push(newSource(harness, record.harness_session_id, main));
  }
  // A subagent runs inside a turn of the conversation, whose transcript grows with it: look for new ones only then.
  const grew = !source || fileFacts(source.file)?.size !== source.offset;
  if (main && harness === "claude" && grew) {
    for (const f of claudeSubagentFiles(main, record.harness_session_id)) if (!known.has(f)) out.push(newSource("claude", record.harness_session_id, f));
  }
  return out;
}

function stale(usage: UsageFile): boolean {
  return usage.sources.some((s) => {
    const f = fileFacts(s.file);
    return f !== undefined && (f.ino !== s.ino || f.size !== s.offset);
  });
}

export interface RefreshResult {
  usage: UsageFile;
  /** Something new was counted. */
  changed: boolean;
}

/**
 * Bring the stored usage up to date with the transcripts. `env` is the
 * environment the agent's CLI runs with (HOME, CODEX_HOME, …): where its
 * transcript is looked for the first time.
 */
export async function refreshUsage(store: ProjectStore, record: SessionRecord, opts: { env?: NodeJS.ProcessEnv; now?: Date; deep?: boolean } = {}): Promise<RefreshResult> {
  const deep = opts.deep ?? false;
  const id = record.session_id;
  const before = readUsage(store, id);
  if (!isUsageHarness(record.harness)) return { usage: before, changed: false };
  if (missingSources(before, record, opts.env, deep).length === 0 && !stale(before)) return { usage: before, changed: false };
  return withLock(
    usageLockPath(store, id),
    () => {
      const usage = readUsage(store, id);
      usage.sources.push(...missingSources(usage, record, opts.env, deep));
      let changed = false;
      for (const s of usage.sources) if (readIncrement(s)) changed = true;
      if (changed || usage.sources.length !== before.sources.length) {
        if (changed) usage.updatedAt = (opts.now ?? new Date()).toISOString();
        writeUsage(store, id, usage);
      }
      return { usage, changed };
    },
    { purpose: `usage ${id}` },
  );
}
