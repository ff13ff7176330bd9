// Claude Code's screens: trust and sign-in dialogs, tool approval prompts, the
// spinner line of a turn in progress, and the composer at rest.
import type { RuleSet } from "./types";

export const claudeRules: RuleSet = {
  harness: "claude",
  process: /(^|[/\s])claude(\.exe)?(\s|$)|@anthropic-ai\/claude-code/,
  banner: /Claude Code|claude\.ai\/code/,
  rules: [
    { id: "claude.trust", status: "needs_attention", reason: "claude asks whether to trust this folder", screen: /Do you trust the files in this folder|Yes, I trust this folder|Quick safety check/i },
    { id: "claude.approval", status: "needs_attention", reason: "claude waits for an approval", screen: /Do you want to (proceed|make this edit|create|allow|run)|Would you like to proceed/i },
    // The API refused the turn, or is refusing it while Claude Code retries: the line sits right above the
    // composer block; a newer turn pushes it out of the window, so an old error is not read as the state now.
    { id: "claude.rate-limited", status: "needs_attention", reason: "rate_limited: claude's API answers 429 (a rate or usage limit)", screen: /API Error: .*\(429\)|^\s*✻ 429 .*Retrying|rate_limit_error|usage limit reached|You've hit your (usage )?limit|\blimit reached\b.*\breset/i, within: 6, stall: "rate_limited" },
    { id: "claude.signin", status: "needs_attention", reason: "auth_required: claude needs sign-in or a valid API key", screen: /Select login method|Detected a custom API key/i, stall: "auth_required" },
    // The API refused the key: like a 429, the error line sits right above the composer (an answer that
    // quotes such an error further up is not a stall).
    { id: "claude.auth-failed", status: "needs_attention", reason: "auth_required: claude's API refuses its key", screen: /Please run \/login|Invalid API key|API Error: 401/i, within: 8, stall: "auth_required" },
    { id: "claude.offline", status: "needs_attention", reason: "claude cannot reach its API", screen: /Unable to connect to Anthropic services|Failed to connect to api\.anthropic\.com/i },
    { id: "claude.onboarding", status: "needs_attention", reason: "claude shows a first-run dialog", screen: /Choose the text style|Press Enter to continue|Security notes:/i },
    { id: "claude.working", status: "active", reason: "claude is working (interrupt hint on screen)", screen: /\b(esc|ctrl\+c) to interrupt\b/i, within: 12 },
    { id: "claude.spinner", status: "active", reason: "claude is working (spinner line)", screen: /^\s*[·✢✳✶✻✽*]\s+\S+…/u, within: 12 },
    { id: "claude.composer", status: "idle", reason: "claude composer at rest", screen: /^\s*[│|]?\s*[>❯](\s|$)|\? for shortcuts/u, within: 8 },
  ],
  fallback: { id: "claude.running", status: "active", reason: "claude is running; no idle or attention landmark on screen" },
};
