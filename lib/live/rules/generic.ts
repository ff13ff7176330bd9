// Panes with no agent CLI: a program asking a yes/no or password question
// needs attention, a shell in the foreground is idle, anything else is working.
import { type RuleSet, SHELL_COMMANDS } from "./types";

export const genericRules: RuleSet = {
  harness: "generic",
  rules: [
    // A shell is the foreground process of a script too: its last line asking y/N is a question.
    { id: "generic.confirm", status: "needs_attention", reason: "a program asks a yes/no question", screen: /(\[(y\/n|y\/N|Y\/n)\]|\((y\/n|yes\/no)\))\s*[?:]?\s*$/i, within: 1 },
    { id: "generic.password", status: "needs_attention", reason: "a program asks for a password", screen: /\b(password|passphrase)\b[^:]*:\s*$/i, within: 1, notCommand: SHELL_COMMANDS },
    { id: "generic.press-key", status: "needs_attention", reason: "a program waits for a key press", screen: /press (any key|enter|return) to continue/i, within: 2 },
    { id: "generic.shell", status: "idle", reason: "shell prompt with no agent running", command: SHELL_COMMANDS },
  ],
  fallback: { id: "generic.foreground", status: "active", reason: "foreground command {command} is running" },
};
