// Gemini CLI's screens: folder trust, authentication and theme pickers, tool
// confirmations, the "(esc to cancel, …)" progress line, and the composer.
import type { RuleSet } from "./types";

export const geminiRules: RuleSet = {
  harness: "gemini",
  process: /(^|[/\s])gemini(\s|$)|@google\/gemini-cli|gemini-cli/,
  banner: /Gemini CLI|gemini-\d/i,
  rules: [
    { id: "gemini.trust", status: "needs_attention", reason: "gemini asks whether to trust this folder", screen: /Do you trust (the files in )?this folder|Trust (this |parent )?folder \(/i },
    { id: "gemini.approval", status: "needs_attention", reason: "gemini waits for a tool confirmation", screen: /Allow execution|Apply this change\?|Do you want to proceed\?|Waiting for user confirmation|Allow once/i },
    // The first-run login choice is a login screen like Claude Code's and Codex's sign-in: a stall.
    // Only its own question, in the dialog at the bottom: an answer that mentions a login is not one.
    { id: "gemini.signin", status: "needs_attention", reason: "auth_required: gemini needs sign-in or an API key", screen: /How would you like to authenticate/i, within: 20, stall: "auth_required" },
    { id: "gemini.setup", status: "needs_attention", reason: "gemini asks for its first-run setup", screen: /Select Theme/i },
    // A quota the API refused: Gemini CLI asks whether to keep trying (a dialog at the bottom).
    { id: "gemini.rate-limited", status: "needs_attention", reason: "rate_limited: gemini's API quota is exhausted", screen: /Usage limit reached for|exhausted your (daily )?quota|Quota exceeded|RESOURCE_EXHAUSTED|"code":\s*429/i, within: 12, stall: "rate_limited" },
    { id: "gemini.auth-failed", status: "needs_attention", reason: "auth_required: gemini's API refuses its key", screen: /API key not valid|API_KEY_INVALID|Please set an Auth method/i, within: 10, stall: "auth_required" },
    { id: "gemini.working", status: "active", reason: "gemini is working (cancel hint on screen)", screen: /\besc to cancel\b/i, within: 12 },
    { id: "gemini.composer", status: "idle", reason: "gemini composer at rest", screen: /Type your message or @path|^\s*[│|]?\s*>\s/u, within: 8 },
  ],
  fallback: { id: "gemini.running", status: "active", reason: "gemini is running; no idle or attention landmark on screen" },
};
