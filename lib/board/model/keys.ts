// The board's keys, once: the footer, the help screen and docs/board.md read this list.

export interface KeyHelp {
  keys: string;
  /** The few words the footer shows ("" keeps it out of the footer). */
  short: string;
  what: string;
  /** Asks y/N first. */
  confirms?: boolean;
}

export const KEYS: KeyHelp[] = [
  { keys: "↑ ↓  j k", short: "move", what: "move the selection (PgUp PgDn Home End jump)" },
  { keys: "Enter", short: "attach", what: "attach to the session (inside tmux: switch, or a popup for spex's own server; detach comes back)" },
  { keys: "n", short: "new", what: "new session: prompt, launcher, group, base" },
  { keys: "s", short: "send", what: "send a message (Enter sends, Alt+Enter is a new line)" },
  { keys: "d", short: "diff", what: "the session's diff, uncommitted files included (scroll with j k, Space, b)" },
  { keys: "m", short: "merge", what: "merge the branch: pick a strategy, confirm; a conflict changes nothing", confirms: true },
  { keys: "x", short: "stop", what: "stop the agent and its tmux session", confirms: true },
  { keys: "a", short: "archive", what: "archive the session, or restore an archived one", confirms: true },
  { keys: "r", short: "resume", what: "resume a stopped session" },
  { keys: "R", short: "", what: "resume every session whose agent died (machine restarted, tmux server gone, agent exited), as spex session resume --all", confirms: true },
  { keys: "c", short: "close", what: "close: worktree, branch and record go (the confirm lists what would be lost)", confirms: true },
  { keys: "t", short: "term", what: "open a shell in the session's worktree and attach to it" },
  { keys: "/", short: "filter", what: "filter by words (id, label, branch, status, note); Esc clears" },
  { keys: "g", short: "group", what: "show one group only" },
  { keys: "o", short: "order", what: "triage order (needs you first) or plain `ls` order" },
  { keys: "A", short: "", what: "show or hide archived sessions" },
  { keys: "?", short: "help", what: "this help" },
  { keys: "q", short: "quit", what: "quit (Ctrl-C too, from anywhere); the terminal is left as it was" },
];

/** The footer's line: `↑↓ move  ⏎ attach  s send …`. */
export function footerKeys(): string {
  return KEYS.filter((k) => k.short)
    .map((k) => `${k.keys === "↑ ↓  j k" ? "↑↓" : k.keys === "Enter" ? "⏎" : k.keys} ${k.short}`)
    .join("  ");
}
