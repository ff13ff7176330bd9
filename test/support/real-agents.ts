// Prepare an isolated home for each real agent CLI so it runs fully offline
// against a fake model API on loopback (DESIGN.md §12), and return the
// environment to start it with. Nothing here touches the user's real config.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { claude } from "../../lib/harness/claude";
import { codex } from "../../lib/harness/codex";
import { type CodexHandler, codexHandlersOf, codexHookTrust } from "../../lib/harness/codex-trust";
import { gemini } from "../../lib/harness/gemini";
import { waitFor } from "./sandbox";

export const REPO_ROOT = resolve(__dirname, "..", "..");
// The agent CLIs have their own manifest (e2e-agents/, outside test/ so no test runner walks its ~750 MB), installed by `make test`.
const AGENTS = join(REPO_ROOT, "e2e-agents", "node_modules");
const BIN = join(AGENTS, ".bin");

export type RealCli = "claude" | "codex" | "gemini";

export function realCliBinary(cli: RealCli): string | undefined {
  const p = join(BIN, cli);
  return existsSync(p) ? p : undefined;
}

/** The installed version of a real CLI, read from its npm package. */
export function realCliVersion(cli: RealCli): string {
  const pkg = { claude: "@anthropic-ai/claude-code", codex: "@openai/codex", gemini: "@google/gemini-cli" }[cli];
  return JSON.parse(readFileSync(join(AGENTS, pkg, "package.json"), "utf8")).version;
}

// Inherited variables that would point a CLI at a real account or change its
// mode; TERM and the size come from the tmux pane, as in a real launch.
// CI=true (set by the CI runner) makes Gemini CLI run non-interactively and exit at once.
const STRIP = /^(ANTHROPIC_|CLAUDE|OPENAI_|CODEX_|GEMINI_|GOOGLE_|TMUX$|TMUX_PANE$|TERM$|COLORTERM$|COLUMNS$|LINES$|CI$|CONTINUOUS_INTEGRATION$)/;

function baseEnv(home: string, extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !STRIP.test(k)) env[k] = v;
  return { ...env, HOME: home, ...extra };
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2) + "\n");
}

// ---------------------------------------------------------------- Claude Code

/** Any key works against the fake; Claude Code asks once per key unless its last 20 characters are approved. */
export const FAKE_ANTHROPIC_KEY = "sk-ant-api03-offline-fake-key-for-spex-tests-0123456789abcdef";

export interface ClaudeSetup {
  /** Temp folder used as HOME; ~/.claude.json and ~/.claude/ are written there. */
  home: string;
  /** Base URL of the fake Messages API (no /v1 suffix). */
  apiUrl: string;
  /** Folders whose trust dialog counts as accepted; a parent covers worktrees under it. */
  trust: string[];
}

export function prepareClaude(s: ClaudeSetup): Record<string, string> {
  mkdirSync(join(s.home, ".claude"), { recursive: true });
  const projects: Record<string, unknown> = {};
  for (const dir of s.trust) projects[dir] = { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] };
  writeJson(join(s.home, ".claude.json"), {
    hasCompletedOnboarding: true,
    customApiKeyResponses: { approved: [FAKE_ANTHROPIC_KEY.slice(-20)], rejected: [] },
    projects,
  });
  return baseEnv(s.home, {
    ANTHROPIC_BASE_URL: s.apiUrl,
    ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
  });
}

// ---------------------------------------------------------------------- Codex

export const FAKE_OPENAI_KEY = "sk-offline-fake-openai-key-for-spex-tests";
/** The provider name written into config.toml; its key comes from this variable. */
export const CODEX_PROVIDER = "spexfake";
export const CODEX_KEY_ENV = "SPEX_FAKE_OPENAI_KEY";

// The trust scheme lives in lib (spex records trust for its own hooks); tests reuse it.
export { codexEventSnake, codexHookTrust } from "../../lib/harness/codex-trust";

/** Every handler of a Claude-shaped hooks.json, with the position Codex keys its trust by. */
export function codexHooksOf(hooksFile: string): CodexHandler[] {
  return codexHandlersOf(hooksFile, JSON.parse(readFileSync(hooksFile, "utf8")));
}

const tomlString = (s: string) => JSON.stringify(s);

export interface CodexSetup {
  /** Temp folder used as HOME; CODEX_HOME is <home>/.codex. */
  home: string;
  /** Base URL of the fake Responses API (no /v1 suffix). */
  apiUrl: string;
  /** Main checkouts to trust: linked worktrees resolve to their main checkout; a parent folder covers nothing. */
  trust: string[];
  /** hooks.json files whose handlers are pre-approved. */
  hooksFiles?: string[];
  model?: string;
}

export function prepareCodex(s: CodexSetup): Record<string, string> {
  const codexHome = join(s.home, ".codex");
  mkdirSync(codexHome, { recursive: true });
  const lines = [
    `model = ${tomlString(s.model ?? "gpt-5.1-codex")}`,
    `model_provider = ${tomlString(CODEX_PROVIDER)}`,
    `check_for_update_on_startup = false`,
    ``,
    // The background app-server daemon would outlive the test's tmux server.
    `[features]`,
    `daemon_auto_start = false`,
    ``,
    `[tui]`,
    `screen_reader_detection_done = true`,
    ``,
    `[model_providers.${CODEX_PROVIDER}]`,
    `name = "spex fake"`,
    `base_url = ${tomlString(`${s.apiUrl}/v1`)}`,
    `wire_api = "responses"`,
    `env_key = ${tomlString(CODEX_KEY_ENV)}`,
    ``,
  ];
  for (const dir of s.trust) lines.push(`[projects.${tomlString(dir)}]`, `trust_level = "trusted"`, ``);
  for (const file of s.hooksFiles ?? [])
    for (const h of codexHooksOf(file)) {
      const t = codexHookTrust(h);
      lines.push(`[hooks.state.${tomlString(t.key)}]`, `trusted_hash = ${tomlString(t.hash)}`, ``);
    }
  writeFileSync(join(codexHome, "config.toml"), lines.join("\n"));
  return baseEnv(s.home, { CODEX_HOME: codexHome, [CODEX_KEY_ENV]: FAKE_OPENAI_KEY });
}

// --------------------------------------------------------------------- Gemini

export const FAKE_GEMINI_KEY = "fake-gemini-key-for-spex-tests";
/** The automatic model router expects a structured answer the fake does not give: pin one. */
export const GEMINI_MODEL = "gemini-2.5-flash";

export interface GeminiSetup {
  home: string;
  /** Base URL of the fake Gemini API (no /v1beta suffix). */
  apiUrl: string;
  trust: string[];
}

export function prepareGemini(s: GeminiSetup): Record<string, string> {
  const dir = join(s.home, ".gemini");
  writeJson(join(dir, "settings.json"), {
    security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: true } },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    privacy: { usageStatisticsEnabled: false },
    model: { name: GEMINI_MODEL },
    ui: { hideTips: true },
  });
  writeJson(join(dir, "trustedFolders.json"), Object.fromEntries(s.trust.map((d) => [d, "TRUST_FOLDER"])));
  return baseEnv(s.home, { GOOGLE_GEMINI_BASE_URL: s.apiUrl, GEMINI_API_KEY: FAKE_GEMINI_KEY });
}

// ------------------------------------------------------------ tmux pane driver

/** Quote one word for POSIX sh. */
export function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export interface PaneStart {
  /** tmux socket name (-L); the server is started with -f /dev/null. */
  socket: string;
  /** Session name on that server. */
  name: string;
  cwd: string;
  env: Record<string, string>;
  argv: string[];
  /** Folder for the launch script. */
  scriptDir: string;
  width?: number;
  height?: number;
  /** Keep the pane after the CLI exits, so its last screen can be read. */
  keepOnExit?: boolean;
  /** Which CLI runs there (decides the quiet period before Enter). */
  cli?: RealCli;
}

/** How long a CLI must see no input before an Enter counts as "submit" (see AgentPane.submit). */
export const SUBMIT_QUIET_MS: Record<RealCli, number> = { claude: claude.submitQuietMs, codex: codex.submitQuietMs, gemini: gemini.submitQuietMs };

/**
 * A real CLI running in its own tmux pane. The environment goes through a
 * launch script (export …; exec …) so nothing from the tmux server's own
 * environment reaches the CLI.
 */
export class AgentPane {
  readonly target: string;
  private constructor(readonly socket: string, name: string, readonly cli?: RealCli) {
    this.target = `${name}:`;
  }

  static start(o: PaneStart): AgentPane {
    mkdirSync(o.scriptDir, { recursive: true });
    const script = join(o.scriptDir, `launch-${o.name}.sh`);
    const exports = Object.entries(o.env)
      .filter(([k]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k))
      .map(([k, v]) => `export ${k}=${shQuote(v)}`);
    writeFileSync(script, ["#!/bin/sh", "unset TMUX TMUX_PANE CI", ...exports, `exec ${o.argv.map(shQuote).join(" ")}`, ""].join("\n"));
    const pane = new AgentPane(o.socket, o.name, o.cli);
    const pre = o.keepOnExit ? ["set-option", "-g", "remain-on-exit", "on", ";"] : [];
    pane.tmux([...pre, "new-session", "-d", "-s", o.name, "-x", String(o.width ?? 120), "-y", String(o.height ?? 40), "-c", o.cwd, `sh ${shQuote(script)}`]);
    return pane;
  }

  tmux(args: string[], input?: string): string {
    const r = spawnSync("tmux", ["-L", this.socket, "-f", "/dev/null", ...args], { encoding: "utf8", input });
    if (r.status !== 0) throw new Error(`tmux ${args.join(" ")} failed: ${r.stderr}`);
    return r.stdout;
  }

  /** The visible screen as plain text, exactly as capture-pane prints it. */
  screen(): string {
    return this.tmux(["capture-pane", "-p", "-t", this.target]);
  }

  /** The screen plus up to `lines` lines of scrollback. */
  history(lines = 200): string {
    return this.tmux(["capture-pane", "-p", "-S", `-${lines}`, "-t", this.target]);
  }

  dead(): boolean {
    return this.tmux(["display-message", "-p", "-t", this.target, "#{pane_dead}"]).trim() === "1";
  }

  /** Poll the screen until it matches; throws with the last screen on timeout. */
  async waitForScreen(want: RegExp | ((screen: string) => boolean), what: string, timeoutMs = 20000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    const holds = typeof want === "function" ? want : (s: string) => want.test(s);
    let last = "";
    for (;;) {
      last = this.screen();
      if (holds(last)) return last;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last screen:\n${last}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Type literal text (no Enter). */
  type(text: string): void {
    this.tmux(["send-keys", "-t", this.target, "-l", text]);
  }

  keys(...keys: string[]): void {
    this.tmux(["send-keys", "-t", this.target, ...keys]);
  }

  /** Paste text as one bracketed paste (the way spex delivers prompts), without Enter. */
  paste(text: string): void {
    const buffer = `paste-${process.pid}`;
    this.tmux(["load-buffer", "-b", buffer, "-"], text);
    this.tmux(["paste-buffer", "-p", "-d", "-b", buffer, "-t", this.target]);
  }

  /**
   * Deliver a prompt as one bracketed paste and press Enter once the CLI shows
   * it. Gemini turns an Enter that comes within 30 ms of the previous input
   * into a newline (tmux offers no kitty keyboard protocol), so it needs a
   * quiet period; Codex swallows Enter after fast typed text but not after a
   * bracketed paste; Claude Code takes Enter right away.
   */
  async submit(text: string, opts: { quietMs?: number; timeoutMs?: number } = {}): Promise<void> {
    this.paste(text);
    const lastLine = text.split("\n").filter((l) => l.trim()).pop()?.trim().slice(0, 40) ?? "";
    await this.waitForScreen((s) => s.includes(lastLine) || /\[Pasted text #\d+/.test(s), "the pasted prompt", opts.timeoutMs);
    const quiet = opts.quietMs ?? (this.cli ? SUBMIT_QUIET_MS[this.cli] : 0);
    if (quiet) await new Promise((r) => setTimeout(r, quiet));
    this.keys("Enter");
  }

  /** Stop this pane's CLI (its whole process group) and its tmux session. */
  stop(): void {
    const r = spawnSync("tmux", ["-L", this.socket, "display-message", "-p", "-t", this.target, "#{pane_pid}"], { encoding: "utf8" });
    const pid = Number((r.stdout ?? "").trim());
    if (pid > 1) {
      try {
        process.kill(-pid, "SIGTERM");
      } catch {
        /* already gone */
      }
    }
    spawnSync("tmux", ["-L", this.socket, "kill-session", "-t", this.target]);
  }

  /**
   * Stop every CLI on this server and the server. Gemini in its trust or
   * sign-in dialog ignores the SIGHUP that kill-server sends, so each pane's
   * process group gets a SIGTERM first.
   */
  killServer(): void {
    const panes = spawnSync("tmux", ["-L", this.socket, "list-panes", "-a", "-F", "#{pane_pid}"], { encoding: "utf8" });
    for (const pid of (panes.stdout ?? "").split("\n").map(Number).filter((n) => n > 1)) {
      try {
        process.kill(-pid, "SIGTERM");
      } catch {
        /* already gone */
      }
    }
    spawnSync("tmux", ["-L", this.socket, "kill-server"]);
  }
}

/** Poll until probe answers, every 100 ms (a real CLI is slower than spex): the sandbox's waitFor. */
export function until<T>(probe: () => T | undefined | false, what: string, timeoutMs = 20000): Promise<T> {
  return waitFor(probe, what, timeoutMs, 100);
}
