// What every agent CLI adapter declares (DESIGN.md §5): how to launch and
// resume it, where its hook config lives, how its events map to lifecycle.

export const HARNESS_NAMES = ["claude", "codex", "gemini", "shell"] as const;
export type HarnessName = (typeof HARNESS_NAMES)[number];

export function isHarnessName(name: string): name is HarnessName {
  return (HARNESS_NAMES as readonly string[]).includes(name);
}

/**
 * Canonical hook actions. Each harness maps its own event names onto these;
 * the hook script and `spex internal hook` speak only these.
 * - turn: a new user turn starts (active; previous proposal/note are stale)
 * - tool: the agent is working (active)
 * - stop: the turn ended (idle, or awaiting when a proposal stands)
 * - ask: the agent shows a permission dialog (asking, at once)
 * - notify: a notification; the payload decides whether it is a question (asking)
 * - fail: the turn failed (error)
 * - start: the agent started (readiness; native session id)
 * - end: the agent process ended (stopped)
 */
export const HOOK_ACTIONS = ["turn", "tool", "stop", "ask", "notify", "fail", "start", "end"] as const;
export type HookAction = (typeof HOOK_ACTIONS)[number];

/** What a session asks its agent for, on every launch and resume (stored on the record). */
export interface SpawnOptions {
  model?: string;
  effort?: string;
}

/** Which spawn options a harness has a flag for; `effort` lists the levels its CLI accepts. */
export interface SpawnSupport {
  model: boolean;
  effort?: readonly string[];
}

export interface LaunchContext extends SpawnOptions {
  /** The native conversation id assigned at create, when the harness accepts one. */
  nativeId: string;
}

export interface RenderContext {
  /** SPEX_HOME (for spex's own locks); default spexHome(). */
  home?: string;
  /** The environment that locates the agent's user config (CODEX_HOME, HOME); default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** How an agent CLI starts spex's MCP server: this very spex, `mcp`. */
export interface McpLaunch {
  command: string;
  args: string[];
}

export interface McpRegistration {
  /** Files written (relative to the worktree). */
  files: string[];
  /** Why the server was not registered, when it was not. */
  skipped?: string;
}

export interface HarnessAdapter {
  name: HarnessName;
  /** The command a built-in launcher of this name runs. */
  defaultCommand: string;
  /** When the built-in command depends on the machine (the user's shell): chosen from the environment and what is on PATH. */
  defaultCommandFor?(env: NodeJS.ProcessEnv, which: (program: string) => string | undefined): string;
  /** Native hook event name → canonical action. */
  hookEvents: Record<string, HookAction>;
  /** Keys that interrupt the current turn without ending the session. */
  interruptKeys: string[];
  /**
   * How readiness is proved: the agent's start hook, or a live agent.pid (for
   * agents whose start hook waits for the first prompt).
   */
  readiness: "hook" | "pid";
  /** Quiet time a pasted text needs before Enter submits it rather than adding a newline. */
  submitQuietMs: number;
  /** The spawn options this harness maps onto its own flags. */
  spawn: SpawnSupport;
  /** Arguments placed after the launcher command on a fresh launch (the prompt operand follows). */
  launchArgs(ctx: LaunchContext): string[];
  /** Arguments that resume the native conversation (with the session's spawn options); undefined when the harness has none. */
  resumeArgs(nativeId: string, spawn?: SpawnOptions): string[] | undefined;
  /** A native id chosen by spex at create time (claude takes `--session-id`). */
  assignNativeId?(): string;
  /** Files (relative to the worktree) that hold this harness's hook config. */
  hookConfigFiles: string[];
  /**
   * The agent reads its hook config from the folder it starts in, not from the
   * top of its repository: a session started in a subfolder gets it there too.
   */
  hooksFromStartFolder: boolean;
  /** Files (relative to the main checkout) the render also writes there. */
  mainCheckoutFiles?: string[];
  /**
   * Write the hook config into the worktree, merged with what is there, plus
   * whatever the agent needs to run those hooks unasked. Returns files written.
   */
  renderHooks(worktree: string, hookCommand: (action: HookAction, event: string) => string, ctx?: RenderContext): Promise<string[]>;
  /** Files (relative to the worktree) that hold spex's MCP server registration. */
  mcpConfigFiles: string[];
  /**
   * Register `spex mcp` in the worktree, beside the hooks, merged with the
   * user's servers. `tracked` names the mcpConfigFiles the repository tracks:
   * those are only read (an absolute path of this machine must not land in a commit).
   */
  registerMcp?(worktree: string, server: McpLaunch, tracked: Set<string>): McpRegistration;
  /** Whether the worktree's config makes the agent start spex's MCP server without asking. */
  mcpRegistered?(worktree: string): boolean;
  /** Screens that mean the agent cannot go on (sign-in required, fatal error). */
  fatalScreens: RegExp[];
}
