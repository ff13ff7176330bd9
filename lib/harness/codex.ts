import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import type { HarnessAdapter, HookAction } from "./types";
import { HOOK_MARKER, renderJsonHooks } from "./hook-config";
import { CODEX_CLAMPED_TIMEOUT, codexHandlersOf, codexHookTrust } from "./codex-trust";
import { codexConfigFile, recordCodexTrust } from "./codex-config";

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

export const codex: HarnessAdapter = {
  name: "codex",
  defaultCommand: "codex",
  hookEvents: EVENTS,
  interruptKeys: ["Escape"],
  // SessionStart fires only with the first prompt (never on `codex resume` until one is sent).
  readiness: "pid",
  submitQuietMs: 0,
  launchArgs: () => [],
  resumeArgs: (nativeId) => ["resume", nativeId],
  hookConfigFiles: [HOOKS_FILE],
  async renderHooks(worktree, hookCommand, ctx = {}) {
    const entries = Object.entries(EVENTS).map(([event, action]) => ({ event, command: hookCommand(action, event), timeout: TIMEOUTS[event] ?? 600 }));
    const written = renderJsonHooks(worktree, HOOKS_FILE, entries);
    // Codex keys trust by the real path it finds the file at (its cwd is already resolved).
    const file = realpathSync(join(worktree, HOOKS_FILE));
    const ours = codexHandlersOf(file, JSON.parse(readFileSync(file, "utf8")), (c) => c.includes(HOOK_MARKER));
    await recordCodexTrust(codexConfigFile(ctx.env), ours.map(codexHookTrust), ctx.home);
    return [written];
  },
  fatalScreens: [/Sign in with ChatGPT/i, /unexpected status 401/i],
};
