// Comms test fixtures: a seeded session whose tmux pane runs the fake
// composer, reporting its turns through the binary like real hooks would.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type SessionRecord, writeRecordFile } from "../../lib/record";
import { processIdentity } from "../../lib/proc";
import { projectStore, sessionPaths } from "../../lib/store";
import { REPO_ROOT, SPEX_BIN, type Sandbox, waitFor } from "./sandbox";
import { seedRecord } from "./records";

export const BUN = join(REPO_ROOT, "node_modules", ".bin", "bun");
export const FAKE_COMPOSER = join(REPO_ROOT, "test", "support", "fake-composer.ts");

export interface FakeAgent {
  record: SessionRecord;
  id: string;
  log: string;
  /** Messages the agent received so far (each one submitted text). */
  received(): string[];
  screen(): string;
  /** The composer's process (the pane's process). */
  pid(): number;
  /** Input that reached the composer while one of its turns ran (FAKE_TURN_MS). */
  typedDuringTurns(): string[];
}

export interface FakeAgentOptions {
  /** Keep the pane after the composer dies, as launched sessions do. */
  remainOnExit?: boolean;
  /** Record the composer as the session's agent (agent_pid/agent_start), as a launch does. */
  recordPid?: boolean;
}

// An agent with no adapter (harness ""): no screen contract, and not a shell,
// which is typed the sender's words alone (lib/comms/envelope.ts).
export async function startFakeAgent(sb: Sandbox, fields: Partial<SessionRecord> & { prompt?: string } = {}, env: Record<string, string> = {}, opts: FakeAgentOptions = {}): Promise<FakeAgent> {
  const tmuxName = fields.tmux_session ?? `fake-${Math.random().toString(36).slice(2, 8)}`;
  const record = seedRecord(sb.home, sb.repo, { status: "idle", harness: "", tmux_socket: sb.tmuxSocket, tmux_session: tmuxName, ...fields });
  const log = join(sb.dir, `${record.session_id}.received`);
  const vars: Record<string, string> = {
    SPEX_SESSION_ID: record.session_id,
    SPEX_HOME: sb.home,
    SPEX_PROJECT_ROOT: sb.repo,
    SPEX_TMUX: sb.tmuxSocket,
    SPEX_BIN,
    FAKE_LOG: log,
    ...env,
  };
  const args = ["new-session", "-d", "-s", tmuxName, "-x", "160", "-y", "40", "-c", record.worktree_path];
  for (const [k, v] of Object.entries(vars)) args.push("-e", `${k}=${v}`);
  args.push(`exec ${BUN} ${FAKE_COMPOSER}`);
  if (opts.remainOnExit) args.push(";", "set-option", "-w", "-t", `=${tmuxName}:`, "remain-on-exit", "on");
  const r = sb.tmux(args);
  if (r.status !== 0) throw new Error(`tmux new-session failed: ${r.stderr}`);
  const agent: FakeAgent = {
    record,
    id: record.session_id,
    log,
    received: () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => (JSON.parse(l) as { text: string }).text) : []),
    screen: () => sb.tmux(["capture-pane", "-p", "-t", `=${tmuxName}:`]).stdout,
    pid: () => Number(sb.tmux(["display-message", "-p", "-t", `=${tmuxName}:`, "#{pane_pid}"]).stdout.trim()),
    typedDuringTurns: () => (existsSync(`${log}.busy`) ? readFileSync(`${log}.busy`, "utf8").split("\n").filter(Boolean) : []),
  };
  await waitFor(() => /^>/m.test(agent.screen()), "the fake composer's prompt");
  if (opts.recordPid) {
    const leaf = processIdentity(agent.pid());
    if (!leaf) throw new Error("the fake composer is not running");
    agent.record = { ...record, agent_pid: String(leaf.pid), agent_start: leaf.start };
    writeRecordFile(sessionPaths(projectStore(sb.repo, sb.home), record.session_id).record, agent.record);
  }
  return agent;
}

export function json<T = any>(stdout: string): T {
  return JSON.parse(stdout) as T;
}
