import type { HarnessAdapter, HookAction } from "./types";
import { renderJsonHooks } from "./hook-config";

const EVENTS: Record<string, HookAction> = {
  SessionStart: "start",
  BeforeAgent: "turn",
  BeforeTool: "tool",
  Notification: "notify",
  AfterAgent: "stop",
  SessionEnd: "end",
};

const SETTINGS = ".gemini/settings.json";

export const gemini: HarnessAdapter = {
  name: "gemini",
  defaultCommand: "gemini",
  hookEvents: EVENTS,
  interruptKeys: ["Escape"],
  readiness: "hook",
  // -i: run the prompt, then stay interactive.
  launchArgs: () => ["-i"],
  resumeArgs: (nativeId) => ["--resume", nativeId],
  hookConfigFiles: [SETTINGS],
  renderHooks(worktree, hookCommand) {
    const entries = Object.entries(EVENTS).map(([event, action]) => ({ event, command: hookCommand(action, event) }));
    return [renderJsonHooks(worktree, SETTINGS, entries)];
  },
  fatalScreens: [/API key not valid/i, /Please set an Auth method/i],
};
