// Real runtimes for teardown tests: a worktree made with `git worktree add`, a
// tmux session on the sandbox socket, a recorded agent pid of a chosen
// identity, and a record seeded through the one writer.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { processIdentity } from "../../lib/proc";
import type { SessionRecord } from "../../lib/record";
import { projectStore, sessionPaths } from "../../lib/store";
import type { Sandbox } from "./sandbox";
import { seedRecord } from "./records";
import { anotherStart } from "./processes";

export type AgentKind = "owned" | "dead" | "other" | "none";

export interface LiveSession {
  id: string;
  record: SessionRecord;
  worktree: string;
  branch: string;
  tmuxName: string;
  /** The pid written into the record (0 for none). */
  pid: number;
  /** A process the test started for the "other" case; kill it afterwards. */
  stranger?: ChildProcess;
}

export function panePid(sb: Sandbox, name: string): number {
  const r = sb.tmux(["display-message", "-p", "-t", `=${name}:`, "#{pane_pid}"]);
  if (r.status !== 0) throw new Error(`no pane for ${name}: ${r.stderr}`);
  return Number(r.stdout.trim());
}

export function hasTmux(sb: Sandbox, name: string): boolean {
  return sb.tmux(["has-session", "-t", `=${name}`]).status === 0;
}

export function alive(pid: number): boolean {
  return processIdentity(pid) !== undefined;
}

/** A pid that named a process a moment ago and names none now. */
export function deadPid(): number {
  const r = spawnSync("sh", ["-c", "echo $$"], { encoding: "utf8" });
  return Number(r.stdout.trim());
}

export function startStranger(): ChildProcess {
  const child = spawn("sleep", ["1000"], { stdio: "ignore", detached: true });
  child.unref();
  return child;
}

export interface SeedLiveOptions {
  slug?: string;
  agent?: AgentKind;
  /** Open a tmux session for it (default true). */
  tmux?: boolean;
  /** The pane's command (default `sleep 1000`). */
  command?: string;
  harness?: string;
  /** Record the pid only in agent.pid, as a launch caught before readiness would. */
  pidFileOnly?: boolean;
  fields?: Partial<SessionRecord>;
}

export function seedLive(sb: Sandbox, o: SeedLiveOptions = {}): LiveSession {
  const id = randomUUID();
  const slug = o.slug ?? `task-${id.slice(0, 4)}`;
  const worktree = join(sb.repo, ".worktrees", slug);
  const branch = `spex/${slug}`;
  sb.git(["worktree", "add", "-q", "-b", branch, worktree, "main"]);
  const tmuxName = slug;
  let pid = 0;
  let start = "";
  let stranger: ChildProcess | undefined;
  const wantTmux = o.tmux ?? true;
  if (wantTmux) {
    const r = sb.tmux(["new-session", "-d", "-s", tmuxName, "-c", worktree, "-x", "120", "-y", "30", o.command ?? "sleep 1000"]);
    if (r.status !== 0) throw new Error(`tmux new-session failed: ${r.stderr}`);
  }
  const agent = o.agent ?? (wantTmux ? "owned" : "none");
  if (agent === "owned") {
    pid = panePid(sb, tmuxName);
    start = processIdentity(pid)!.start;
  } else if (agent === "dead") {
    pid = deadPid();
    start = "12345";
  } else if (agent === "other") {
    stranger = startStranger();
    pid = stranger.pid!;
    // Its real start time is something else: this is not the process the record names.
    start = anotherStart(processIdentity(pid)!.start);
  }
  const recordPid = o.pidFileOnly ? "" : pid ? String(pid) : "";
  const record = seedRecord(sb.home, sb.repo, {
    session_id: id,
    prompt: `task ${slug}`,
    worktree_path: worktree,
    branch,
    harness: o.harness ?? "shell",
    launcher: o.harness ?? "shell",
    tmux_socket: sb.tmuxSocket,
    tmux_session: wantTmux ? tmuxName : "",
    agent_pid: recordPid,
    agent_start: recordPid ? start : "",
    ...o.fields,
  });
  if (o.pidFileOnly && pid) writeFileSync(sessionPaths(projectStore(sb.repo, sb.home), id).agentPid, `${pid} ${start}\n`);
  return { id, record, worktree, branch, tmuxName, pid, stranger };
}

export function recordFile(sb: Sandbox, id: string): string {
  return sessionPaths(projectStore(sb.repo, sb.home), id).record;
}

export function sessionDir(sb: Sandbox, id: string): string {
  return sessionPaths(projectStore(sb.repo, sb.home), id).dir;
}

export function branchExists(sb: Sandbox, branch: string): boolean {
  return spawnSync("git", ["show-ref", "--verify", `refs/heads/${branch}`], { cwd: sb.repo, env: sb.env }).status === 0;
}

export function worktreeList(sb: Sandbox): string[] {
  return sb
    .git(["worktree", "list", "--porcelain"])
    .split("\n")
    .filter((l) => l.startsWith("worktree "))
    .map((l) => l.slice(9));
}

export function commitIn(sb: Sandbox, worktree: string, file: string, message: string): void {
  writeFileSync(join(worktree, file), `${message}\n`);
  sb.git(["add", file], worktree);
  sb.git(["commit", "-q", "-m", message], worktree);
}

export function json<T = any>(stdout: string): T {
  return JSON.parse(stdout) as T;
}

export { existsSync };
