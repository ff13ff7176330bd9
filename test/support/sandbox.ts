// Every test gets its own SPEX_HOME, its own git repositories and its own tmux
// server, all removed afterwards (DESIGN.md §10).
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

export const REPO_ROOT = resolve(__dirname, "..", "..");
// SPEX_TEST_BIN / SPEX_TEST_CJS let parallel work build private copies.
export const SPEX_BIN = process.env.SPEX_TEST_BIN || join(REPO_ROOT, "bin", "spex");
export const SPEX_CJS = process.env.SPEX_TEST_CJS || join(REPO_ROOT, "dist", "spex.cjs");

const PASS_CHOICES = new Set(["SPEX_PROC", "SPEX_LOCK_GUARD"]);

/** The environment of a test process: no inherited git config or GIT_* variables. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    // CI=true from the CI runner would make agent CLIs in the panes non-interactive.
    // SPEX_PROC and SPEX_LOCK_GUARD pick the backends of a whole test pass (make test-portable): they stay.
    if (v === undefined || k.startsWith("GIT_") || (k.startsWith("SPEX_") && !PASS_CHOICES.has(k)) || k === "TMUX" || k === "TMUX_PANE" || k === "CI") continue;
    env[k] = v;
  }
  return {
    ...env,
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: "spex test",
    GIT_AUTHOR_EMAIL: "test@spex.invalid",
    GIT_COMMITTER_NAME: "spex test",
    GIT_COMMITTER_EMAIL: "test@spex.invalid",
    ...extra,
  };
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Sandbox {
  dir: string;
  home: string;
  repo: string;
  tmuxSocket: string;
  env: Record<string, string>;
  /** Run the built binary (or the Node bundle) as a user would. */
  spex(args: string[], opts?: { cwd?: string; input?: string | Buffer; env?: Record<string, string>; runner?: "bin" | "node" }): RunResult;
  git(args: string[], cwd?: string): string;
  tmux(args: string[]): SpawnSyncReturns<string>;
  cleanup(): void;
}

let counter = 0;

/**
 * Sandboxes not yet cleaned up. A test run stopped by a signal (a `timeout`,
 * Ctrl-C) skips every afterEach: their tmux servers, and each session's agent
 * and watcher, would run on. The first SIGTERM or SIGINT ends those servers.
 */
const live = new Set<Sandbox>();
let signalsHandled = false;

function endLiveSandboxesOnSignal(): void {
  if (signalsHandled) return;
  signalsHandled = true;
  for (const [signal, code] of [["SIGTERM", 143], ["SIGINT", 130]] as const) {
    process.once(signal, () => {
      for (const sb of [...live]) sb.cleanup();
      process.exit(code);
    });
  }
}

export function makeRepo(dir: string, env: Record<string, string>): string {
  mkdirSync(dir, { recursive: true });
  const git = (args: string[]) => {
    const r = spawnSync("git", args, { cwd: dir, env, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr}`);
    return r.stdout;
  };
  git(["init", "-q", "-b", "main"]);
  writeFileSync(join(dir, "README.md"), "# test repo\n");
  git(["add", "README.md"]);
  git(["commit", "-q", "-m", "initial"]);
  return realpathSync(dir);
}

/** Where `tmux -L <name>` puts its socket for this environment. */
export function tmuxSocketPath(name: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(env.TMUX_TMPDIR || "/tmp", `tmux-${process.getuid?.() ?? 0}`, name);
}

/**
 * The servers a test started beside its sandbox's own, named after it
 * (`<socket>-user`, `-inner`, `-caller`, …): its cleanup ends them too, or
 * their sockets stay in /tmp/tmux-<uid> (245 after a few runs here).
 */
function derivedSockets(socket: string, env: NodeJS.ProcessEnv): string[] {
  try {
    return readdirSync(dirname(tmuxSocketPath(socket, env))).filter((name) => name.startsWith(`${socket}-`));
  } catch {
    return [];
  }
}

export function sandbox(opts: { repo?: boolean } = {}): Sandbox {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "spex-test-")));
  const home = join(dir, "home");
  mkdirSync(home);
  const tmuxSocket = `spex-test-${process.pid}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;
  const env = cleanEnv({ SPEX_HOME: home, SPEX_TMUX: tmuxSocket, HOME: join(dir, "userhome") });
  mkdirSync(env.HOME!, { recursive: true });
  const repo = opts.repo === false ? "" : makeRepo(join(dir, "repo"), env);
  const sb: Sandbox = {
    dir,
    home,
    repo,
    tmuxSocket,
    env,
    spex(args, o = {}) {
      const [cmd, pre] = o.runner === "node" ? ["node", [SPEX_CJS]] : [SPEX_BIN, []];
      const r = spawnSync(cmd, [...pre, ...args], {
        cwd: o.cwd ?? repo ?? dir,
        env: { ...env, ...(o.env ?? {}) },
        input: o.input,
        encoding: "utf8",
        timeout: 60000,
        // `ls --json` of a 1,000-session fleet is past spawnSync's 1 MiB default (the child is killed).
        maxBuffer: 256 * 1024 * 1024,
      });
      return { code: r.status ?? -1, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
    },
    git(args, cwd) {
      const r = spawnSync("git", args, { cwd: cwd ?? repo, env, encoding: "utf8" });
      if (r.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr}`);
      return r.stdout;
    },
    tmux(args) {
      return spawnSync("tmux", ["-L", tmuxSocket, "-f", "/dev/null", ...args], { env, encoding: "utf8" });
    },
    cleanup() {
      live.delete(sb);
      for (const name of [tmuxSocket, ...derivedSockets(tmuxSocket, env)]) {
        spawnSync("tmux", ["-L", name, "kill-server"], { env, encoding: "utf8" });
        // tmux (3.3) leaves its socket file behind when killed: a full run would leave ~600 in /tmp/tmux-<uid>.
        rmSync(tmuxSocketPath(name, env), { force: true });
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  live.add(sb);
  endLiveSandboxesOnSignal();
  return sb;
}

/** The JSON a command printed; a failed command throws with its exit code and stderr. */
export function okJson(r: RunResult): any {
  if (r.code !== 0) throw new Error(`exit ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** Poll a condition until it holds or the deadline passes (never a fixed sleep). */
export async function waitFor<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 10000, everyMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** What a create can leave behind (worktrees, branches, session folders): equal before and after a refusal. */
export function madeBySpex(sb: Sandbox): { worktrees: string; branches: string; sessions: string[] } {
  const projects = join(sb.home, "projects");
  const key = existsSync(projects) ? readdirSync(projects)[0] : undefined;
  const dir = key ? join(projects, key, "sessions") : "";
  return { worktrees: sb.git(["worktree", "list", "--porcelain"]), branches: sb.git(["branch", "--list"]), sessions: dir && existsSync(dir) ? readdirSync(dir).sort() : [] };
}
