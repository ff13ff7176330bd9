// Codex CLI's screens: folder trust, hook review, sign-in, command and patch
// approvals, the "Working (… esc to interrupt)" status, and the composer.
import type { RuleSet } from "./types";

export const codexRules: RuleSet = {
  harness: "codex",
  process: /(^|[/\s])codex(\s|$)|@openai\/codex/,
  banner: /OpenAI Codex/,
  rules: [
    { id: "codex.trust", status: "needs_attention", reason: "codex asks whether to trust this folder", screen: /Trust this folder\?|Trust and continue|Do you trust the contents of this directory|allow Codex to work in this folder/i },
    { id: "codex.hooks-review", status: "needs_attention", reason: "codex asks to review hooks", screen: /Hooks need review/i },
    { id: "codex.approval", status: "needs_attention", reason: "codex waits for an approval", screen: /Would you like to (run|make|apply)|Allow command\?|Yes, proceed|requires approval/i },
    { id: "codex.signin", status: "needs_attention", reason: "auth_required: codex needs sign-in", screen: /Sign in with ChatGPT|Provide your own API key/i, stall: "auth_required" },
    // A turn the API refused, after Codex's retries: the ■ line stays above the composer.
    { id: "codex.rate-limited", status: "needs_attention", reason: "rate_limited: codex's API answers 429 (a rate or usage limit)", screen: /last status: 429|status 429|usage limit|Rate limit reached/i, within: 5, stall: "rate_limited" },
    { id: "codex.unauthorized", status: "needs_attention", reason: "auth_required: codex's API refuses its key (401)", screen: /status 401 Unauthorized|Incorrect API key|invalid_api_key/i, within: 5, stall: "auth_required" },
    { id: "codex.working", status: "active", reason: "codex is working (interrupt hint on screen)", screen: /\besc to interrupt\b/i, within: 12 },
    { id: "codex.composer", status: "idle", reason: "codex composer at rest", screen: /^\s*[›▌]\s|Ask Codex to do anything|⏎ send|context left/u, within: 8 },
  ],
  fallback: { id: "codex.running", status: "active", reason: "codex is running; no idle or attention landmark on screen" },
};
