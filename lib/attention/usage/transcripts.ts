// Where each harness keeps a conversation's transcript, found by the native
// conversation id the record holds (harness_session_id), never by guessing
// from times or folders alone:
// - Claude Code: $CLAUDE_CONFIG_DIR (else ~/.claude)/projects/<cwd with every
//   character but letters and digits as ->/<id>.jsonl
// - Codex: $CODEX_HOME (else ~/.codex)/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl
// - Gemini CLI: $GEMINI_CLI_HOME (else ~)/.gemini/tmp/<project name from
//   projects.json>/chats/session-<time>-<first 8 of id>.jsonl, whose first
//   line names the whole id
// The environment is the agent's when a hook asks (it found the file and the
// path is remembered); a later reader only re-reads what it remembered.
import { closeSync, existsSync, openSync, readSync, readdirSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Harness } from "./parse";

export interface TranscriptQuery {
  harness: Harness;
  nativeId: string;
  /** The folder the agent runs in (its worktree, or a folder in it). */
  cwd: string;
  /** When the session was made: Codex files its rollouts under the day they began. */
  createdAt: string;
  env?: NodeJS.ProcessEnv;
  /**
   * Also look everywhere the harness could have put it (every project folder,
   * every day). The hook at rest does; a listing tries only the likely
   * places, so sessions with no transcript yet cost it nothing.
   */
  deep?: boolean;
}

function home(env: NodeJS.ProcessEnv): string {
  return env.HOME || homedir();
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Claude Code's project folder name for a working directory. */
export function claudeProjectName(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, "-");
}

function claudeProjects(env: NodeJS.ProcessEnv): string {
  return join(env.CLAUDE_CONFIG_DIR || join(home(env), ".claude"), "projects");
}

/** Where Claude Code puts a conversation started in `cwd` (when the folder's name is not shortened), there yet or not. */
export function claudeTranscriptPath(cwd: string, nativeId: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(claudeProjects(env), claudeProjectName(cwd), `${nativeId}.jsonl`);
}

function claudeTranscript(q: TranscriptQuery, env: NodeJS.ProcessEnv): string | undefined {
  const projects = claudeProjects(env);
  const file = `${q.nativeId}.jsonl`;
  const direct = claudeTranscriptPath(q.cwd, q.nativeId, env);
  if (existsSync(direct) || !q.deep) return existsSync(direct) ? direct : undefined;
  // A long path is shortened in the folder name: look in every project folder.
  for (const name of listDir(projects)) {
    const candidate = join(projects, name, file);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

function codexTranscript(q: TranscriptQuery, env: NodeJS.ProcessEnv): string | undefined {
  const sessions = join(env.CODEX_HOME || join(home(env), ".codex"), "sessions");
  const suffix = `-${q.nativeId}.jsonl`;
  const inDay = (y: string, m: string, d: string) => listDir(join(sessions, y, m, d)).find((n) => n.startsWith("rollout-") && n.endsWith(suffix));
  // The day the session was made, the days around it and today first (local and UTC dates may differ).
  const start = Date.parse(q.createdAt);
  const days = new Set<string>();
  for (const base of [Number.isFinite(start) ? start : Date.now(), Date.now()]) {
    for (const shift of [0, -1, 1]) {
      const t = new Date(base + shift * 86_400_000);
      const pad = (n: number) => String(n).padStart(2, "0");
      days.add(`${t.getFullYear()}/${pad(t.getMonth() + 1)}/${pad(t.getDate())}`);
      days.add(t.toISOString().slice(0, 10).replace(/-/g, "/"));
    }
  }
  for (const day of days) {
    const [y, m, d] = day.split("/") as [string, string, string];
    const name = inDay(y, m, d);
    if (name) return join(sessions, y, m, d, name);
  }
  if (!q.deep) return undefined;
  // Resumed long after it began: walk every day, newest first.
  for (const y of listDir(sessions).sort().reverse())
    for (const m of listDir(join(sessions, y)).sort().reverse())
      for (const d of listDir(join(sessions, y, m)).sort().reverse()) {
        const name = inDay(y, m, d);
        if (name) return join(sessions, y, m, d, name);
      }
  return undefined;
}

function firstLine(file: string): string {
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.alloc(4096);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString("utf8").split("\n")[0] ?? "";
  } finally {
    closeSync(fd);
  }
}

function geminiSessionIn(chats: string, id: string): string | undefined {
  const tail = `-${id.slice(0, 8)}.jsonl`;
  for (const name of listDir(chats)) {
    if (!name.startsWith("session-") || !name.endsWith(tail)) continue;
    const file = join(chats, name);
    try {
      if ((JSON.parse(firstLine(file)) as { sessionId?: string }).sessionId === id) return file;
    } catch {
      // not a session file we can read
    }
  }
  return undefined;
}

function geminiTranscript(q: TranscriptQuery, env: NodeJS.ProcessEnv): string | undefined {
  const gemini = join(env.GEMINI_CLI_HOME || home(env), ".gemini");
  const tmp = join(gemini, "tmp");
  const names: string[] = [];
  try {
    const projects = (JSON.parse(readFileSync(join(gemini, "projects.json"), "utf8")) as { projects?: Record<string, string> }).projects ?? {};
    const name = projects[q.cwd];
    if (name) names.push(name);
  } catch {
    // no registry: an older CLI names the folder by a hash of the path
  }
  for (const name of names) {
    const found = geminiSessionIn(join(tmp, name, "chats"), q.nativeId);
    if (found) return found;
  }
  if (!q.deep) return undefined;
  for (const name of listDir(tmp)) {
    if (names.includes(name)) continue;
    const found = geminiSessionIn(join(tmp, name, "chats"), q.nativeId);
    if (found) return found;
  }
  return undefined;
}

/** The transcript file of a conversation, or undefined while the harness has written none. */
export function findTranscript(q: TranscriptQuery): string | undefined {
  if (!q.nativeId) return undefined;
  const env = q.env ?? process.env;
  switch (q.harness) {
    case "claude":
      return claudeTranscript(q, env);
    case "codex":
      return codexTranscript(q, env);
    case "gemini":
      return geminiTranscript(q, env);
  }
}

/** Size and identity of a file, or undefined when it is gone. */
export function fileFacts(file: string): { size: number; ino: number } | undefined {
  try {
    const st = statSync(file);
    return st.isFile() ? { size: st.size, ino: st.ino } : undefined;
  } catch {
    return undefined;
  }
}
