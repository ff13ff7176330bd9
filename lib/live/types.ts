// The live pane row of the sessions live contract (seeds/000, DESIGN.md §8):
// the required fields keep the contract's names, types and enums; `socket`,
// `sessionId`, `harness` and `statusRule` are additive.

export const LIVE_STATUSES = ["active", "idle", "needs_attention", "dead"] as const;
export type LiveStatus = (typeof LIVE_STATUSES)[number];

export function isLiveStatus(v: string): v is LiveStatus {
  return (LIVE_STATUSES as readonly string[]).includes(v);
}

export interface LiveRow {
  target: string;
  session: string;
  windowIndex: string;
  paneIndex: string;
  paneId: string;
  command: string;
  /** null when tmux does not know the pane's folder. */
  cwd: string | null;
  /** The main checkout of cwd (the record's project for spex sessions); null when cwd is unknown. */
  projectPath: string | null;
  /** A slug, never empty: of the project folder's name, else of the tmux session name, else "unknown". */
  projectSlug: string;
  /** The short host name (SPEX_MACHINE overrides it). */
  machine: string;
  /** Untrusted display text. */
  title: string;
  status: LiveStatus;
  statusReason: string;
  paneDead: boolean;
  paneActive: boolean;
  /** Untrusted display text: never parsed, never executed. null for a blank screen. */
  lastVisibleLine: string | null;
  isOpenSession: boolean;
  /** The tmux socket the pane lives on ("" is the user's default server). */
  socket: string;
  /** The spex session that owns the pane, null for panes spex does not govern. */
  sessionId: string | null;
  /** The agent CLI: the record's harness for governed panes, else detected; null when none. */
  harness: string | null;
  /** The id of the rule that decided `status`. */
  statusRule: string;
  /** What holds the agent up, when that is why it needs attention: rate_limited, auth_required (absent otherwise). */
  stall?: "rate_limited" | "auth_required";
}

/** One pane as `tmux list-panes -a` describes it, before any capture. */
export interface PaneInfo {
  socket: string;
  session: string;
  windowIndex: string;
  paneIndex: string;
  paneId: string;
  command: string;
  cwd: string;
  title: string;
  paneDead: boolean;
  paneActive: boolean;
  panePid: number;
}

export interface Classification {
  status: LiveStatus;
  reason: string;
  rule: string;
  /** rate_limited or auth_required when a stall rule (or the record) decided it. */
  stall?: "rate_limited" | "auth_required";
}
