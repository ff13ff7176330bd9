// The sandbox (issue 26 item 4): the agent runs under bubblewrap on Linux,
// with the file system read-only but for its worktree, the parts of the
// repository's git folder a commit on its branch writes (objects, refs, logs
// and its worktree's own folder, never what git reads as config or runs as a
// hook outside the sandbox), its own config folders, the
// project's store folder and spex's home locks (so spex's hooks and `spex`
// calls from inside still work), the tmux socket folder (the same reason) and
// a private /tmp; the network stays unless `no-network`. What it does not
// protect is in docs/workspace.md. macOS has no bubblewrap: refused there.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { SpexError } from "../errors";
import type { SandboxMode } from "./config";

export const BWRAP = "bwrap";

export interface SandboxAvailability {
  platform: NodeJS.Platform;
  /** bubblewrap is on PATH (its version), or undefined. */
  version?: string;
  /** It ran a command in a sandbox like the agent's (user namespaces allowed). */
  usable: boolean;
  /** Why not, when not. */
  reason: string;
}

let cached: SandboxAvailability | undefined;

/** Whether the sandbox can run here: one bwrap of `true` with the mounts the agent gets. */
export function sandboxAvailability(platform: NodeJS.Platform = process.platform): SandboxAvailability {
  if (platform !== "linux") {
    return { platform, usable: false, reason: `the sandbox needs bubblewrap, which runs on Linux only (this is ${platform === "darwin" ? "macOS" : platform}); not supported here yet` };
  }
  if (cached) return cached;
  const v = spawnSync(BWRAP, ["--version"], { encoding: "utf8" });
  if (v.error || v.status !== 0) return (cached = { platform, usable: false, reason: "bubblewrap (bwrap) is not installed: apt-get install bubblewrap (or your system's package)" });
  const version = v.stdout.trim();
  const probe = spawnSync(BWRAP, ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--unshare-net", "--", "true"], { encoding: "utf8", timeout: 10000 });
  if (probe.status === 0) return (cached = { platform, version, usable: true, reason: "" });
  const said = (probe.stderr || probe.error?.message || `exit ${probe.status}`).trim().split("\n")[0];
  return (cached = { platform, version, usable: false, reason: `${version} is installed but cannot make a sandbox here (${said}); unprivileged user namespaces may be off (sysctl kernel.unprivileged_userns_clone, or an AppArmor rule)` });
}

/** Refuse, before anything is made, a sandbox this machine cannot give. */
export function refuseUnsandboxable(mode: SandboxMode, platform: NodeJS.Platform = process.platform): void {
  if (mode === "") return;
  const a = sandboxAvailability(platform);
  if (a.usable) return;
  if (a.platform !== "linux") {
    throw new SpexError("sandbox_unsupported", `--sandbox is not supported on ${a.platform === "darwin" ? "macOS" : a.platform} yet: ${a.reason}`, {
      hint: "run the session without --sandbox (and without \"sandbox\" on its launcher), or on a Linux machine (`spex session new --machine NAME`)",
      httpStatus: 400,
    });
  }
  throw new SpexError("sandbox_unavailable", `the sandbox cannot run here: ${a.reason}`, {
    hint: "`spex doctor` says what is missing; or run the session without --sandbox",
    httpStatus: 400,
  });
}

/** The config a harness writes as it runs, relative to HOME (or absolute from its own variable). */
export function agentConfigPaths(harness: string, env: NodeJS.ProcessEnv, home: string): string[] {
  switch (harness) {
    case "claude":
      return [env.CLAUDE_CONFIG_DIR || join(home, ".claude"), join(home, ".claude.json")];
    case "codex":
      return [env.CODEX_HOME || join(home, ".codex")];
    case "gemini":
      return [join(home, ".gemini")];
    default:
      return [];
  }
}

export interface SandboxPlan {
  mode: Exclude<SandboxMode, "">;
  worktree: string;
  /** The repository's git folder (objects, refs, each worktree's own folder). */
  commonDir: string;
  /**
   * The session worktree's own folder in the git folder (`worktrees/NAME`: its
   * index, HEAD, reflog), or undefined when it is not one (then none is writable).
   */
  gitDir?: string;
  /** The hooks folder git runs hooks from (core.hooksPath may put it anywhere in the git folder). */
  hooksDir: string;
  /** The project's store folder (records, timelines, locks, queue). */
  storeDir: string;
  /** SPEX_HOME. */
  spexHome: string;
  /** The user's HOME. */
  userHome: string;
  harness: string;
  /** The folder the tmux sockets are in. */
  tmuxDir: string;
  /** Folders the agent must still read that may sit under /tmp: the main checkout, the spex binary's folder, PATH's folders. */
  readable: string[];
  env: NodeJS.ProcessEnv;
}

/**
 * The git folder's parts shared by every worktree that git writes as it
 * commits, fetches, stashes or rebases on a branch: nothing in them is run or
 * read as config. packed-refs and gc.pid sit at the top level, read-only, so
 * `git gc` and `git pack-refs` fail inside (a branch is written loose).
 */
export const GIT_WRITABLE = ["objects", "refs", "logs", "reftable", "lfs", "rr-cache"];

const underTmp = (p: string) => p === "/tmp" || p.startsWith("/tmp/");

/**
 * The file system every sandbox starts from: all of it read-only, its own
 * /dev and /proc, a private /tmp. What must be read under /tmp comes back
 * read-only, parents first. --die-with-parent: nothing in it outlives the
 * bwrap spex (or tmux) knows.
 */
function readOnlyBase(readable: (string | undefined)[]): string[] {
  const args = ["--die-with-parent", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
  const under = [...new Set(readable.filter((d): d is string => !!d && underTmp(d) && d !== "/tmp"))].sort((a, b) => a.length - b.length);
  for (const d of under) args.push("--ro-bind-try", d, d);
  return args;
}

/** Pure: bwrap's arguments, in mount order (a later mount lies over an earlier one). */
export function bwrapArgs(p: SandboxPlan): string[] {
  const args = readOnlyBase([...p.readable, p.spexHome, p.userHome]);
  // Of the git folder, only what a commit on the agent's branch writes: its top level stays read-only
  // (config, config.worktree, commondir: git reads them outside the sandbox), and so do modules/
  // (submodules' hooks and config) and the other worktrees' folders.
  const git = [...GIT_WRITABLE.map((d) => join(p.commonDir, d)), ...(p.gitDir ? [p.gitDir] : [])];
  const writable = [p.worktree, ...git, p.storeDir, join(p.spexHome, "locks"), ...agentConfigPaths(p.harness, p.env, p.userHome), p.tmuxDir];
  for (const d of writable) args.push("--bind-try", d, d);
  // Read-only again over what is writable: the hooks folder git runs hooks from (core.hooksPath may put
  // it under objects/ or refs/), the repository's config, and what tells git where the worktree's
  // repository and config are (its .git file, its folder's commondir, gitdir and config.worktree).
  const pointers = p.gitDir ? [...["commondir", "gitdir", "config.worktree"].map((f) => join(p.gitDir!, f)), join(p.worktree, ".git")] : [];
  for (const d of new Set([join(p.commonDir, "hooks"), p.hooksDir, join(p.commonDir, "config"), ...pointers])) args.push("--ro-bind-try", d, d);
  if (p.mode === "no-network") args.push("--unshare-net");
  return args;
}

/**
 * bwrap's argv for a git read run from outside over a sandboxed session's
 * worktree (close's and merge's `git status`). The worktree's files and index
 * are the agent's, so a submodule there (or a gitlink it added) has a git
 * folder of its making, and git runs what that folder's config names
 * (`core.fsmonitor`, a clean filter) as it checks the submodule. Here that
 * runs with less than the agent has: nothing writable, a private /tmp, no
 * network, its own pids, and no terminal to push keys into (a new session).
 */
export function containedGitArgv(args: string[], readable: string[]): string[] {
  return [...readOnlyBase(readable), "--new-session", "--unshare-net", "--unshare-pid", "--unshare-ipc", "--", "git", ...args];
}

/**
 * A create from inside a sandbox (launch.sh exports SPEX_SANDBOX there): its
 * worktree would be made outside what the sandbox may write. Said plainly here
 * rather than as git's read-only error halfway through.
 */
export function refuseInsideSandbox(env: NodeJS.ProcessEnv = process.env): void {
  const mode = env.SPEX_SANDBOX;
  if (mode !== "on" && mode !== "no-network") return;
  throw new SpexError("sandbox_confined", "a session in a sandbox cannot create sessions: their worktrees are outside what it may write", {
    hint: "create it from outside the sandbox (your own shell, or the backend), or run this session without --sandbox",
    httpStatus: 403,
  });
}

/** The tmux socket folder of this user, as tmux makes it. */
export function tmuxSocketDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.TMUX_TMPDIR || "/tmp";
  return join(base, `tmux-${process.getuid?.() ?? 0}`);
}

/** Folders of the agent's PATH and of spex itself that may need to be seen again under a private /tmp. */
export function readableFolders(env: NodeJS.ProcessEnv, mainRoot: string, spexBin: string): string[] {
  const path = (env.PATH ?? "").split(":").filter((d) => d.startsWith("/") && existsSync(d));
  return [mainRoot, dirname(spexBin), ...path];
}

/** `spex doctor`'s line for the sandbox: optional, it warns without failing the report. */
export function sandboxCheck(platform: NodeJS.Platform = process.platform): { name: string; required: boolean; ok: boolean; detail: string; code?: string } {
  const a = sandboxAvailability(platform);
  if (a.usable) return { name: "sandbox", required: false, ok: true, detail: `${a.version}: available and usable (session new --sandbox)` };
  return { name: "sandbox", required: false, ok: false, detail: a.reason, code: a.platform === "linux" ? "sandbox_unavailable" : "sandbox_unsupported" };
}
