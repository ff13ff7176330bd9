import type { HarnessAdapter, HookAction } from "./types";
import { jsonHookRenderer } from "./hook-config";
import { declaredSpexServer, registerJsonMcp } from "./mcp-config";
import { randomId } from "../hash";

const EVENTS: Record<string, HookAction> = {
  SessionStart: "start",
  BeforeAgent: "turn",
  BeforeTool: "tool",
  AfterTool: "tool",
  // Its only notification type is ToolPermission (~0.4 s after the dialog shows).
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
  // After a paste Gemini reads Enter as a newline until a 40 ms timer has run and React has
  // re-rendered its input handler (no kitty keyboard protocol in tmux); on a loaded machine
  // that took more than 100 ms, so the prompt sat in the composer.
  submitQuietMs: 300,
  // --session-id: the conversation id spex chose (it is the hooks' session_id); -i: run the
  // prompt (its value, so it comes last), then stay interactive.
  // `gemini --help` (0.61): -m <model>; no effort flag (thinking budgets live in its settings).
  spawn: { model: true },
  launchArgs: ({ nativeId, model }) => [...(nativeId ? ["--session-id", nativeId] : []), ...(model ? ["-m", model] : []), "-i"],
  resumeArgs: (nativeId, { model } = {}) => ["--resume", nativeId, ...(model ? ["-m", model] : [])],
  assignNativeId: () => randomId(),
  hookConfigFiles: [SETTINGS],
  // Gemini CLI loads workspace settings from process.cwd() (loadSettings).
  hooksFromStartFolder: true,
  renderHooks: jsonHookRenderer(SETTINGS, EVENTS),
  // The server's own tools run without a confirmation (`trust`), as its hooks run unasked.
  mcpConfigFiles: [SETTINGS],
  registerMcp: (worktree, server, tracked) => registerJsonMcp(worktree, SETTINGS, { command: server.command, args: server.args, trust: true }, tracked.has(SETTINGS)),
  mcpRegistered: (worktree) => declaredSpexServer(worktree, SETTINGS) !== undefined,
  fatalScreens: [/API key not valid/i, /Please set an Auth method/i],
};
