// Starting an agent: fence the record, render launch.sh, open the tmux
// session, and wait (bounded) for the harness to prove readiness.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { writeStoreFile } from "../nofollow";
import { loadConfig } from "../config";
import { SpexError } from "../errors";
import { harnessAdapter } from "../harness";
import { probeLeaf } from "../proc";
import { type SessionRecord, readSession, refuseUnusable, updateRecord } from "../record";
import { type ProjectStore, sessionPaths } from "../store";
import { SPEX_HOME_OPTION, SPEX_PROJECT_OPTION, capturePane, exactSession, formatLiteral, hasSession, killSession, sessionPaneStates, spexSocket, tmuxFolder, tmuxStart, tmuxSync, tmuxWord } from "../tmux";
import { branchExists } from "../git";
import { faultPoint } from "../faults";
import { clearFence, freezeOriginal, launcherIsSelf, markLauncher, readAgentPid, readinessTimeout, restoreOriginal } from "./fence";
import { settleFence } from "./settle";

export { readinessTimeout };
import { requireExecutable, resolveLauncher } from "./launcher";
import { renderLaunchScript } from "./script";
import { launcherLocale, machineChoices } from "./choices";
import { selfBin } from "./self";
import { shellLaunch } from "./shell";
import { refusePromptTooLarge } from "./argv-limit";
import { startFolder } from "./placement";
import { renderStartFolder } from "./render";
import { setupFailedError, setupNeverPassed, workspaceLaunch } from "../workspace";

export interface LaunchOptions {
  /** Relaunch with the harness's resume marker (no prompt) when a native id is recorded. */
  resume?: boolean;
  /** Wait for readiness (default true). */
  wait?: boolean;
  timeoutMs?: number;
  /** Told once the tmux session exists: this launch made it (a create notes it for its rollback). */
  onStarted?: (tmux: { socket: string; name: string; id: string }) => void;
  /**
   * This process already raised the fence under the project lock (a create or
   * the launch queue claiming a slot): the fence is its own, not a launch in progress.
   */
  claimed?: boolean;
  /** Told once the window is open and the wait for readiness begins (a terminal shows it). */
  onWaiting?: (wait: ReadinessWait) => void;
}

/** What a launch waits for, and for how long at most. */
export interface ReadinessWait {
  harness: string;
  /** `hook`: the agent's start hook (a shell: its first prompt); `pid`: its process. */
  mode: "hook" | "pid";
  tmuxSession: string;
  timeoutMs: number;
  /** The session's setup runs first (lib/workspace). */
  setup?: boolean;
}

export interface Readiness {
  record: SessionRecord;
  ready: boolean;
}

export interface LaunchResult extends Readiness {
  /** The prompt, for the caller to type as the first command (an interactive shell session); null otherwise. */
  firstCommand: string | null;
}

export function tmuxNameFor(record: SessionRecord): string {
  return record.worktree_path.split("/").pop()!.replace(/[.:]/g, "-");
}

/** Refusals this machine can settle before a window opens (DESIGN.md §5.6). */
async function refuseUnlaunchable(record: SessionRecord): Promise<void> {
  if (!existsSync(record.worktree_path)) {
    throw new SpexError("record_retired", `the worktree ${record.worktree_path} is gone; nothing can launch there`, {
      hint: "only close remains for this session",
    });
  }
  if (!(await branchExists(record.project_root, record.branch))) {
    throw new SpexError("branch_missing", `the branch ${record.branch} no longer exists`, {
      hint: "recreate the branch or close the session",
    });
  }
}

interface Launchable {
  current: SessionRecord;
  launcher: { command: string; harness: string };
}

/**
 * Every refusal this machine can settle before a window opens (DESIGN.md §5.6):
 * an unusable or already-starting record, no worktree, no branch, a launcher
 * whose program is gone. Callers that stop something first (resume --force)
 * ask this before they change anything.
 */
export async function checkLaunchable(store: ProjectStore, id: string, opts: { claimed?: boolean } = {}): Promise<Launchable> {
  let reading = readSession(store, id);
  refuseUnusable(reading);
  const ownFence = opts.claimed === true && reading.pending !== null && launcherIsSelf(store, id);
  // A fence nobody waits on any more is settled first, so only a live launch refuses.
  if (reading.pending && !ownFence && (await settleFence(store, id))) {
    reading = readSession(store, id);
    refuseUnusable(reading);
  }
  const current = reading.record;
  if (reading.pending && !ownFence) {
    throw new SpexError("launch_in_progress", `session ${id.slice(0, 8)} is already starting`, {
      hint: "wait for it, or stop it first",
    });
  }
  await refuseUnlaunchable(current);
  // The pinned launch_cmd wins over today's config: a session keeps the command it was created with.
  const launcher = current.launch_cmd
    ? { command: current.launch_cmd, harness: current.harness }
    : resolveLauncher(loadConfig(store.root), current.launcher);
  if (current.launch_cmd) requireExecutable(current.launch_cmd, current.launcher || current.harness);
  return { current, launcher };
}

export async function launchSession(store: ProjectStore, id: string, opts: LaunchOptions = {}): Promise<LaunchResult> {
  const { current, launcher } = await checkLaunchable(store, id, { claimed: opts.claimed });
  const adapter = harnessAdapter(launcher.harness);
  const socket = current.tmux_socket || spexSocket();
  const tmuxName = current.tmux_session || tmuxNameFor(current);
  if (hasSession(socket, tmuxName)) {
    throw new SpexError("session_running", `tmux session ${tmuxName} is already running`, {
      hint: `attach with \`spex session attach ${id.slice(0, 8)}\`, or stop it first`,
    });
  }
  if (current.agent_pid && probeLeaf(current.agent_pid, current.agent_start) === "owned") {
    throw new SpexError("session_running", `the agent of session ${id.slice(0, 8)} (pid ${current.agent_pid}) is still running`, {
      hint: "stop it first",
    });
  }

  const paths = sessionPaths(store, id);
  // The options the session was created with ride every launch, resume included.
  const spawn = { model: current.model, effort: current.effort };
  // Only a conversation that ever started can be resumed: a session never launched (--no-launch, queued) starts fresh with its prompt.
  const resumeArgs = opts.resume && current.harness_session_id && everLaunched(store, id) ? adapter.resumeArgs(current.harness_session_id, spawn) : undefined;
  const bin = selfBin(store.home);
  const shell = adapter.name === "shell" ? shellLaunch(launcher.command, store.home, bin) : undefined;
  const readiness = shell?.readiness ?? adapter.readiness;
  const given = resumeArgs ? null : readFileSync(paths.prompt, "utf8");
  // An interactive shell runs its prompt as the first command, typed once it is at rest.
  const firstCommand = shell?.typesPrompt && given !== null && given.trim() !== "" ? given : null;
  const prompt = shell?.typesPrompt ? null : given;
  const args = resumeArgs ?? [...(shell?.args ?? []), ...adapter.launchArgs({ nativeId: current.harness_session_id, ...spawn })];
  // Settled before launch.sh or the fence is written (a record made before this limit was checked).
  if (prompt !== null) refusePromptTooLarge(prompt, [launcher.command, ...args]);
  // Reached (and made when missing) without following a link: refused before any window opens.
  const cwd = startFolder(current.worktree_path, current.directory);
  await renderStartFolder(store.root, current.worktree_path, current.directory, adapter.name, store.home);
  // The setup (when due), the port block, the sandbox: lib/workspace.
  const workspace = await workspaceLaunch(store, id, current, { bin });
  const script = renderLaunchScript({
    harness: adapter.name,
    sessionId: id,
    worktree: cwd,
    env: {
      ...launcherLocale(),
      SPEX_SESSION_ID: id,
      SPEX_HOME: store.home,
      SPEX_PROJECT_ROOT: store.root,
      SPEX_BIN: bin,
      SPEX_RECORD: paths.record,
      SPEX_HARNESS: adapter.name,
      SPEX_TMUX: socket,
      ...machineChoices(),
      ...workspace.env,
    },
    pidFile: paths.agentPid,
    command: launcher.command,
    args,
    prompt,
    setup: shell?.setup,
    workspace: workspace.lines,
  });
  writeStoreFile(paths.launch, script, { mode: 0o755 });
  rmSync(paths.agentPid, { force: true });
  markLauncher(store, id);

  // Fence first: until readiness is proven, readers see the original, offline.
  await updateRecord(
    store,
    id,
    (r) => ({
      ...r,
      // A claimed slot already froze the original (the record as it was before the claim).
      launch_readiness_pending: r.launch_readiness_pending || freezeOriginal(r),
      status: prompt === null ? "idle" : "active",
      stopped: false,
      archived: false,
      tmux_socket: socket,
      tmux_session: tmuxName,
      agent_pid: "",
      agent_start: "",
      // A failed setup of an earlier launch is its runner's to mark again (lib/workspace).
      setup: "",
    }),
    { reason: "launch", purpose: `launch ${id}` },
  );

  faultPoint("launch-window");
  // One tmux call: open the session on a placeholder, keep dead panes for their last screen, then start the script.
  // -P prints the new session's id only when this call made it: a session of that name made by anyone else is never killed here.
  const started = tmuxStart(socket, [
    "new-session", "-d", "-P", "-F", "#{session_id}", "-s", formatLiteral(tmuxName), "-c", tmuxFolder(cwd), "-x", "200", "-y", "50",
    ";", "set-option", "-w", "-t", `${exactSession(tmuxName)}:`, "remain-on-exit", "on",
    // Whose session this is, for `doctor` on a socket other projects share.
    ";", "set-option", "-t", `${exactSession(tmuxName)}:`, SPEX_PROJECT_OPTION, tmuxWord(store.root),
    ";", "set-option", "-t", `${exactSession(tmuxName)}:`, SPEX_HOME_OPTION, tmuxWord(store.home),
    // sh and the script as two words: tmux runs one command string through the server's default-shell (the
    // user's $SHELL: nologin for a service account, nushell, a tmux.conf's choice), two words it runs as they are.
    ";", "respawn-pane", "-k", "-t", `${exactSession(tmuxName)}:`, "--", "sh", tmuxWord(paths.launch),
  ]);
  const madeId = /^\$\d+$/m.exec(started.stdout)?.[0];
  if (madeId) opts.onStarted?.({ socket, name: tmuxName, id: madeId });
  if (started.code !== 0) {
    if (madeId) tmuxSync(socket, ["kill-session", "-t", madeId]);
    await restoreOriginal(store, id);
    throw new SpexError("tmux_failed", `tmux could not open session ${tmuxName}: ${started.stderr.trim()}`, {
      hint: "check that tmux works here (`spex doctor`)",
    });
  }
  // A pid proves itself within moments, and no hook may come to clear the fence (codex resume): always wait for it.
  if (opts.wait === false && readiness !== "pid") return { record: readRecordOk(store, id), ready: false, firstCommand };
  const timeoutMs = (opts.timeoutMs ?? readinessTimeout()) + workspace.extraWaitMs;
  opts.onWaiting?.({ harness: adapter.name, mode: readiness, tmuxSession: tmuxName, timeoutMs, setup: workspace.setup });
  return { ...(await waitForReadiness(store, id, readiness, timeoutMs)), firstCommand };
}

/** launch.sh is written by every launch before its window opens; a setup that never passed never let the agent start. */
export function everLaunched(store: ProjectStore, id: string): boolean {
  return existsSync(sessionPaths(store, id).launch) && !setupNeverPassed(store, id);
}

function readRecordOk(store: ProjectStore, id: string): SessionRecord {
  const r = readSession(store, id);
  refuseUnusable(r, { allowRetired: true });
  return r.record;
}

/**
 * What tmux says of the launch's pane: `dead` (every pane of the session is,
 * remain-on-exit kept them), `gone` (no such session, or no server), or
 * undefined: alive, or an answer that is neither, which the next look asks
 * again rather than failing a launch that may be fine.
 */
function paneEnded(socket: string, name: string): { how: "dead" | "gone"; said: string } | undefined {
  const states = sessionPaneStates(socket, name);
  if (states === undefined) return undefined;
  if ("gone" in states) return { how: "gone", said: states.gone };
  return states.panes.length > 0 && states.panes.every((p) => p.dead) ? { how: "dead", said: "" } : undefined;
}

/** Poll until the fence clears (success), the pane dies (failure, original restored), or time runs out. */
export async function waitForReadiness(store: ProjectStore, id: string, mode: "hook" | "pid", timeoutMs: number): Promise<Readiness> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reading = readSession(store, id);
    refuseUnusable(reading, { allowRetired: true });
    if (!reading.pending) return { record: reading.record, ready: true };
    const { tmux_socket: socket, tmux_session: name } = reading.record;
    if (mode === "pid") {
      const leaf = readAgentPid(store, id);
      if (leaf && probeLeaf(leaf.pid, leaf.start) === "owned") {
        await clearFence(store, id);
        return { record: readRecordOk(store, id), ready: true };
      }
    }
    const ended = paneEnded(socket, name);
    if (ended) {
      let screen = "";
      if (ended.how === "dead") {
        screen = capturePane(socket, `${exactSession(name)}:`, 200)?.trimEnd() ?? "";
        writeStoreFile(sessionPaths(store, id).lastScreen, screen + "\n");
      }
      killSession(socket, name);
      // Read again: the setup runner marks its failure just before its pane ends.
      const after = readSession(store, id);
      await restoreOriginal(store, id);
      // The setup failed before the agent started: the session stays for resume to run it again.
      if (after.kind === "ok" && after.record.setup === "failed") throw setupFailedError(store, id, screen);
      // No screen to quote: tmux's own answer says what became of the session.
      if (ended.how === "gone") {
        throw new SpexError("launch_failed", `the tmux session of session ${id.slice(0, 8)} ended before its agent was ready (tmux: ${ended.said})`, {
          hint: "something outside this launch ended it (a kill-session or kill-server); `spex session resume` starts it again",
          details: { tmuxSession: name, tmux: ended.said },
        });
      }
      // Its last words can sit at the top with tmux's "Pane is dead" at the bottom: quote non-blank lines.
      // An error is one line (DESIGN.md §4): the screen's lines are joined with " | "; details keep it whole.
      const excerpt = screen.split("\n").filter((l) => l.trim() !== "").slice(-15).map((l) => l.trim()).join(" | ") || "(blank)";
      throw new SpexError("launch_failed", `the agent of session ${id.slice(0, 8)} exited before it was ready; last screen: ${excerpt}`, {
        hint: "fix what the screen shows, then `spex session resume` (or close the session)",
        details: { lastScreen: screen },
      });
    }
    if (Date.now() > deadline) return { record: reading.record, ready: false };
    await new Promise((r) => setTimeout(r, 40));
  }
}
