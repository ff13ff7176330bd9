import type { HarnessAdapter, HookAction } from "./types";
import { renderJsonHooks } from "./hook-config";

const EVENTS: Record<string, HookAction> = {
  SessionStart: "start",
  UserPromptSubmit: "turn",
  PreToolUse: "tool",
  Stop: "stop",
};

const HOOKS_FILE = ".codex/hooks.json";

export const codex: HarnessAdapter = {
  name: "codex",
  defaultCommand: "codex",
  hookEvents: EVENTS,
  interruptKeys: ["Escape"],
  readiness: "hook",
  launchArgs: () => [],
  resumeArgs: (nativeId) => ["resume", nativeId],
  hookConfigFiles: [HOOKS_FILE],
  renderHooks(worktree, hookCommand) {
    // An explicit timeout: codex's trust hash covers the handler as written.
    const entries = Object.entries(EVENTS).map(([event, action]) => ({ event, command: hookCommand(action, event), timeout: 600 }));
    return [renderJsonHooks(worktree, HOOKS_FILE, entries)];
  },
  fatalScreens: [/Sign in with ChatGPT/i, /unexpected status 401/i],
};
