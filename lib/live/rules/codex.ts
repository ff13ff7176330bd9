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
    { id: "codex.signin", status: "needs_attention", reason: "codex needs sign-in", screen: /Sign in with ChatGPT|Provide your own API key/i },
    { id: "codex.working", status: "active", reason: "codex is working (interrupt hint on screen)", screen: /\besc to interrupt\b/i, within: 12 },
    { id: "codex.composer", status: "idle", reason: "codex composer at rest", screen: /^\s*[›▌]\s|Ask Codex to do anything|⏎ send|context left/u, within: 8 },
  ],
  fallback: { id: "codex.running", status: "active", reason: "codex is running; no idle or attention landmark on screen" },
};
