import { randomUUID } from "node:crypto";
import type { HarnessAdapter, HookAction } from "./types";
import { jsonHookRenderer } from "./hook-config";

const EVENTS: Record<string, HookAction> = {
  SessionStart: "start",
  UserPromptSubmit: "turn",
  PreToolUse: "tool",
  // Fires ~0.1 s after the permission dialog shows; Notification(permission_prompt) only ~6 s later.
  PermissionRequest: "ask",
  // An approved tool ran: the agent works again (a long command must not read as asking).
  PostToolUse: "tool",
  Notification: "notify",
  Stop: "stop",
  StopFailure: "fail",
  SessionEnd: "end",
};

// Local settings: auto-discovered by Claude Code and normally untracked, so
// rendering hooks never dirties a file the repository tracks.
const SETTINGS = ".claude/settings.local.json";

export const claude: HarnessAdapter = {
  name: "claude",
  defaultCommand: "claude",
  hookEvents: EVENTS,
  interruptKeys: ["Escape"],
  readiness: "hook",
  submitQuietMs: 0,
  launchArgs: ({ nativeId }) => (nativeId ? ["--session-id", nativeId] : []),
  resumeArgs: (nativeId) => ["--resume", nativeId],
  assignNativeId: () => randomUUID(),
  hookConfigFiles: [SETTINGS],
  renderHooks: jsonHookRenderer(SETTINGS, EVENTS),
  fatalScreens: [/Invalid API key/i, /Please run \/login/i, /API Error: 401/],
};
