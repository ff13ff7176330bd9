// What the workspace adds to a launch (lib/launch/start.ts asks once): the
// environment (SPEX_WORKTREE, the port block, assigned here), and the lines
// launch.sh runs before it records the agent's pid: the setup, when one is
// due, then (in a sandbox) the same script again under bubblewrap, where it
// records the pid of the agent itself and starts it.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { errnoCode } from "../errors";
import { findCheckout } from "../git/main-root";
import { hooksDirOf } from "../git/ops";
import type { SessionRecord } from "../record";
import { type ProjectStore, sessionPaths } from "../store";
import { realOrSelf } from "../store/key";
import { shellQuote } from "../tmux/quote";
import { type SandboxMode, workspaceConfig } from "./config";
import { assignPorts } from "./ports";
import { blockText, portEnv } from "./ports-env";
import { BWRAP, agentConfigPaths, bwrapArgs, readableFolders, refuseUnsandboxable, tmuxSocketDir } from "./sandbox";
import { setupDue } from "./setup-state";

export interface WorkspaceLaunch {
  env: Record<string, string>;
  /** Shell lines for launch.sh, run in the worktree before the agent's pid is recorded. */
  lines: string[];
  /** How much longer than the readiness timeout the launch may take (the setup's own limit). */
  extraWaitMs: number;
  /** This launch runs the setup first. */
  setup: boolean;
}

/** The argument the script gets when it runs again inside the sandbox (an argument: nothing inherits it). */
const IN_SANDBOX = "--in-sandbox";

/**
 * bwrap's --die-with-parent ends the agent itself when the sandbox goes, not
 * what the agent started: Gemini runs its UI in a child of its own, which was
 * seen outliving its pane (closed by tmux, then its folders removed) and
 * spinning a core until killed by hand. This watcher, started before the
 * script becomes bwrap, stays in the pane's process group (tmux gives each
 * pane its own) until that pid is gone; then, as a stop does, it asks what is
 * left of the group to end (TERM: a CLI may be saving its conversation), and
 * kills it after a grace, itself last.
 */
const SANDBOX_WATCHER =
  "( trap '' HUP INT TERM; tail --pid=$$ -f /dev/null 2>/dev/null || while kill -0 $$ 2>/dev/null; do sleep 1; done; kill -TERM 0; sleep 3; kill -KILL 0 ) </dev/null >/dev/null 2>&1 &";

function sandboxExec(store: ProjectStore, id: string, record: SessionRecord, mode: Exclude<SandboxMode, "">, bin: string): string {
  const userHome = process.env.HOME || homedir();
  // What is bound must be there: spex's home locks, the agent's config folders (a file such as ~/.claude.json only if it is).
  mkdirSync(join(store.home, "locks"), { recursive: true });
  for (const p of agentConfigPaths(record.harness, process.env, userHome)) if (!p.endsWith(".json")) mkdirSync(p, { recursive: true });
  const checkout = findCheckout(store.root);
  const commonDir = checkout?.commonDir ?? join(store.root, ".git");
  const gitDir = ownGitDir(record.worktree_path, commonDir);
  // Made here, outside, so they can be bound: a reflog folder git would make on the first commit, and an
  // empty config.worktree (the agent could otherwise make one git reads once extensions.worktreeConfig is on).
  mkdirSync(join(commonDir, "logs"), { recursive: true });
  if (gitDir) {
    try {
      // wx: never through a link someone left in its place.
      writeFileSync(join(gitDir, "config.worktree"), "", { flag: "wx" });
    } catch (e) {
      if (errnoCode(e) !== "EEXIST") throw e;
    }
  }
  let hooksDir = join(commonDir, "hooks");
  try {
    hooksDir = hooksDirOf(store.root);
  } catch {
    // git cannot say: the default folder is kept read-only all the same
  }
  const args = bwrapArgs({
    mode,
    worktree: record.worktree_path,
    commonDir,
    gitDir,
    hooksDir,
    storeDir: store.dir,
    spexHome: store.home,
    userHome,
    harness: record.harness,
    tmuxDir: tmuxSocketDir(),
    readable: readableFolders(process.env, store.root, bin),
    env: process.env,
  });
  return `exec ${[BWRAP, ...args, "--", "/bin/sh", sessionPaths(store, id).launch, IN_SANDBOX].map(shellQuote).join(" ")}`;
}

/**
 * The worktree's own folder in the git folder, when it is one: `worktrees/NAME`
 * whose gitdir names this worktree's .git file. Its .git file may have been
 * written by an agent (a run without the sandbox), so a folder it names
 * elsewhere is never made writable.
 */
function ownGitDir(worktree: string, commonDir: string): string | undefined {
  const found = findCheckout(worktree);
  if (!found || found.gitDir === found.commonDir) return undefined;
  const gitDir = realOrSelf(found.gitDir);
  if (dirname(gitDir) !== join(realOrSelf(commonDir), "worktrees")) return undefined;
  try {
    if (realOrSelf(readFileSync(join(gitDir, "gitdir"), "utf8").trim()) !== realOrSelf(join(worktree, ".git"))) return undefined;
  } catch {
    return undefined;
  }
  return gitDir;
}

export async function workspaceLaunch(store: ProjectStore, id: string, record: SessionRecord, opts: { bin: string }): Promise<WorkspaceLaunch> {
  const config = workspaceConfig(store.root);
  const sandbox = (record.sandbox ?? "") as SandboxMode;
  // Settled before anything of this launch is made (a sandbox that cannot run here refuses).
  refuseUnsandboxable(sandbox);
  // The block is the session's from here until it stops (written on its record under the ports lock).
  const ports = config.ports > 0 ? blockText(await assignPorts(store, id, config.ports, config.portRange)) : undefined;
  const setup = config.setup.kind !== "none" && setupDue(store, id);
  // The runner prints to the pane and the log; the agent starts only when it succeeded. Setup
  // is the project's own (trusted config): it runs outside the sandbox, like the launcher command line.
  const setupLine = '"$SPEX_BIN" internal setup || exit $?';
  const lines = sandbox
    ? [`if [ "\${1:-}" != ${IN_SANDBOX} ]; then`, ...(setup ? [`  ${setupLine}`] : []), `  ${SANDBOX_WATCHER}`, `  ${sandboxExec(store, id, record, sandbox, opts.bin)}`, "fi"]
    : setup
      ? [setupLine]
      : [];
  return {
    env: { SPEX_WORKTREE: record.worktree_path, ...portEnv(ports), ...(sandbox ? { SPEX_SANDBOX: sandbox } : {}) },
    lines,
    // The runner ends the setup at its limit; a little more for it to say so.
    extraWaitMs: setup ? config.setupTimeoutSec * 1000 + 5000 : 0,
    setup,
  };
}
