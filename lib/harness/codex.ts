import { existsSync, lstatSync, readFileSync, realpathSync } from "node:fs";
import { errnoCode } from "../errors";
import { join } from "node:path";
import type { HarnessAdapter, HookAction, SpawnOptions } from "./types";
import { HOOK_MARKER, renderJsonHooks } from "./hook-config";
import { CODEX_CLAMPED_TIMEOUT, type CodexHandler, codexEventSnake, codexHandlersOf, codexHookTrust } from "./codex-trust";
import { codexConfigFile, withCodexConfigLock, writeCodexTrust } from "./codex-config";
import { CODEX_CONFIG, codexMcpDeclared, registerCodexMcp } from "./codex-mcp";
import { findCheckout } from "../git/main-root";
import { ensureExcluded } from "../git/ops";

// Codex 0.171 has no Notification event; its Interrupt hook fires on Esc, ending the turn.
const EVENTS: Record<string, HookAction> = {
  SessionStart: "start",
  UserPromptSubmit: "turn",
  PreToolUse: "tool",
  PermissionRequest: "ask",
  PostToolUse: "tool",
  Stop: "stop",
  Interrupt: "stop",
  SessionEnd: "end",
};

// An explicit timeout on every handler: Codex's trust hash covers the handler as
// written, and it clamps these events to 3 s before hashing.
const TIMEOUTS: Record<string, number> = { SessionEnd: CODEX_CLAMPED_TIMEOUT, Interrupt: CODEX_CLAMPED_TIMEOUT };

const HOOKS_FILE = ".codex/hooks.json";

// The level is one of a closed list (lib/harness/spawn.ts), so the TOML string never needs escaping.
function codexSpawnArgs({ model, effort }: SpawnOptions): string[] {
  return [...(model ? ["-m", model] : []), ...(effort ? ["-c", `model_reasoning_effort="${effort}"`] : [])];
}

/**
 * In a linked worktree Codex 0.171 looks for a `.codex` folder in the worktree
 * but reads the hooks of the main checkout's `.codex/hooks.json` (the project
 * is the main checkout, as for folder trust). The commands name no session
 * (the hook finds it through the environment), so one file serves them all;
 * the worktree gets the same file so its `.codex` folder exists.
 */
async function renderCodexHooks(worktree: string, hookCommand: (action: HookAction, event: string) => string, home?: string, env?: NodeJS.ProcessEnv): Promise<string[]> {
  const entries = Object.entries(EVENTS).map(([event, action]) => ({ event, command: hookCommand(action, event), timeout: TIMEOUTS[event] ?? 600 }));
  const written = renderJsonHooks(worktree, HOOKS_FILE, entries);
  const checkout = findCheckout(worktree);
  const mainRoot = checkout?.mainRoot ?? worktree;
  const config = codexConfigFile(env);
  await withCodexConfigLock(config, home, () => {
    const shared = join(mainRoot, HOOKS_FILE);
    const created = !existsSync(shared);
    if (mainRoot !== worktree) renderJsonHooks(mainRoot, HOOKS_FILE, entries);
    // A file spex made in the user's checkout stays out of their `git status`.
    if (created && checkout && mainRoot !== worktree) ensureExcluded(checkout.commonDir, `/${HOOKS_FILE}`);
    // Codex keys trust by the real path it reads the file at.
    const file = realpathSync(shared);
    const ours = codexHandlersOf(file, JSON.parse(readFileSync(file, "utf8")), (c) => c.includes(HOOK_MARKER));
    writeCodexTrust(config, ours.map(codexHookTrust), staleTrust(file, ours));
  });
  return [written];
}

/**
 * Which trust tables are spex's own and name a hooks.json that is gone (a
 * project deleted or moved): each project adds one a handler, and nothing
 * else would ever take them out of the user's config. Spex's own: the hash is
 * the one spex writes for that event's handler (its command names this
 * SPEX_HOME's hook script), which no handler of the user's has.
 */
function staleTrust(current: string, ours: CodexHandler[]): (key: string, hash: string) => boolean {
  const hashes = new Set(ours.map((h) => `${codexEventSnake(h.event)} ${codexHookTrust(h).hash}`));
  return (key, hash) => {
    const m = /^(\/.*\/\.codex\/hooks\.json):([a-z_]+):\d+:\d+$/.exec(key);
    return !!m && m[1] !== current && hashes.has(`${m[2]} ${hash}`) && gone(m[1]!);
  };
}

/** Nothing at this path (a folder above it gone too); an unreadable one is not gone. */
function gone(path: string): boolean {
  try {
    lstatSync(path);
    return false;
  } catch (e) {
    const code = errnoCode(e);
    return code === "ENOENT" || code === "ENOTDIR";
  }
}

export const codex: HarnessAdapter = {
  name: "codex",
  defaultCommand: "codex",
  hookEvents: EVENTS,
  interruptKeys: ["Escape"],
  // SessionStart fires only with the first prompt (never on `codex resume` until one is sent).
  readiness: "pid",
  submitQuietMs: 0,
  // Without --no-daemon Codex 0.171 runs its turns in a shared app-server daemon per CODEX_HOME,
  // started with the environment of whichever session came first: every session's hooks would
  // then speak for that one, and the daemon would outlive `stop`. --no-daemon keeps the turns
  // (and the hooks) in this session's own process, even when a daemon is already running.
  // `codex --help` (0.171): -m <model>; effort has no flag of its own, it is the config key
  // model_reasoning_effort (none|minimal|low|medium|high|xhigh), set for this run with -c.
  spawn: { model: true, effort: ["none", "minimal", "low", "medium", "high", "xhigh"] },
  launchArgs: (spawn) => ["--no-daemon", ...codexSpawnArgs(spawn)],
  resumeArgs: (nativeId, spawn = {}) => ["resume", "--no-daemon", ...codexSpawnArgs(spawn), nativeId],
  hookConfigFiles: [HOOKS_FILE],
  // Codex walks up to the project root (its .git marker) for .codex.
  hooksFromStartFolder: false,
  mainCheckoutFiles: [HOOKS_FILE],
  renderHooks: (worktree, hookCommand, ctx = {}) => renderCodexHooks(worktree, hookCommand, ctx.home, ctx.env),
  mcpConfigFiles: [CODEX_CONFIG],
  registerMcp: (worktree, server, tracked) => registerCodexMcp(worktree, server, tracked.has(CODEX_CONFIG)),
  mcpRegistered: codexMcpDeclared,
  fatalScreens: [/Sign in with ChatGPT/i, /unexpected status 401/i],
};
