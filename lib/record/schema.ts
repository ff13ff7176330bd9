// The session record (DESIGN.md §3): a flat object with a fixed key order and
// every key present, but for the optional keys: `base` (only pinned creates
// carry it) and the spawn placement and options at the end (`directory`,
// `model`, `effort`), each written only when set, so a record that uses none
// keeps its exact legacy bytes. `stall` (rate_limited, auth_required: a pane
// or a hook showed the agent held up by its API) is written only while it
// stands, the same way; so are the workspace fields `setup` (a failed setup),
// `ports` (the session's port block), `sandbox` and `teardown` (a close ran
// the teardown; the record goes with that close). `agent_boot` (the boot the
// agent's start identity belongs to) rides beside agent_pid/agent_start, and
// `stopped_by` (`spex`: stop, close or archive --stop ended the agent) beside
// stopped: each only while what it qualifies stands (lib/record/update.ts
// drops them with it), so readers can say why an agent is gone
// (lib/survive/reason.ts).

export const LIFECYCLES = ["active", "idle", "awaiting", "parked", "asking", "error", "queued"] as const;
export type Lifecycle = (typeof LIFECYCLES)[number];

export const PROPOSALS = ["", "merge", "nothing", "close"] as const;
export type Proposal = (typeof PROPOSALS)[number];

export const AFTER_TURN = ["", "archive", "stop"] as const;
export type AfterTurn = (typeof AFTER_TURN)[number];

/**
 * The agent's own declaration standing in this turn (done, park, ask). A
 * declaration outranks what hooks later infer (a Stop, a tool call, a failure,
 * the process ending) until a new turn starts.
 */
export const DECLARATIONS = ["", "done", "park", "ask"] as const;
export type Declaration = (typeof DECLARATIONS)[number];

export interface SessionRecord {
  session_id: string;
  governed: boolean;
  project_root: string;
  worktree_path: string;
  branch: string;
  base?: string;
  node: string;
  title: string;
  name: string;
  parent: string;
  status: Lifecycle;
  proposal: Proposal;
  note: string;
  harness: string;
  harness_session_id: string;
  launcher: string;
  launch_cmd: string;
  tmux_socket: string;
  tmux_session: string;
  agent_pid: string;
  agent_start: string;
  /** The boot id of the machine the agent started on (lib/proc agentBoot), written with agent_pid. */
  agent_boot?: string;
  stopped: boolean;
  /** `spex` when spex ended the agent (stop, close, archive --stop); absent when it ended on its own. */
  stopped_by?: string;
  archived: boolean;
  after_turn: AfterTurn;
  declared: Declaration;
  launch_readiness_pending: string;
  create_request_id: string;
  create_payload_hash: string;
  createdAt: string;
  updatedAt: string;
  /** The folder the agent starts in, relative to the worktree ("" or absent: the worktree itself). */
  directory?: string;
  /** The model the harness is asked for on every launch and resume. */
  model?: string;
  /** The reasoning effort the harness is asked for, where it has one. */
  effort?: string;
  /** What holds the agent up, seen on its screen or reported by its hook: rate_limited, auth_required (lib/attention). */
  stall?: string;
  /** `failed` while the last setup of the session failed (lib/workspace); absent otherwise. */
  setup?: string;
  /** The port block of the last launch, `first-last` (lib/workspace); held while the session runs, cleared at stop. */
  ports?: string;
  /** The sandbox the agent runs in: `on` or `no-network` (lib/workspace); absent: none. */
  sandbox?: string;
  /** `ran` once a close ran the project's teardown to success: a close killed before the worktree went must not run it again. */
  teardown?: string;
}

/** The serialization order. The optional keys (OPTIONAL_FIELDS) are skipped when absent or empty. */
export const FIELD_ORDER: readonly (keyof SessionRecord)[] = [
  "session_id",
  "governed",
  "project_root",
  "worktree_path",
  "branch",
  "base",
  "node",
  "title",
  "name",
  "parent",
  "status",
  "proposal",
  "note",
  "harness",
  "harness_session_id",
  "launcher",
  "launch_cmd",
  "tmux_socket",
  "tmux_session",
  "agent_pid",
  "agent_start",
  "agent_boot",
  "stopped",
  "stopped_by",
  "archived",
  "after_turn",
  "declared",
  "launch_readiness_pending",
  "create_request_id",
  "create_payload_hash",
  "createdAt",
  "updatedAt",
  "directory",
  "model",
  "effort",
  "stall",
  "setup",
  "ports",
  "sandbox",
  "teardown",
];

/** Keys written only when set: a record without them is byte for byte what it was before they existed. */
export const OPTIONAL_FIELDS = new Set<keyof SessionRecord>(["base", "agent_boot", "stopped_by", "directory", "model", "effort", "stall", "setup", "ports", "sandbox", "teardown"]);

export const BOOLEAN_FIELDS = new Set<keyof SessionRecord>(["governed", "stopped", "archived"]);

/** The frozen pre-launch original held by the readiness fence. */
export interface PendingOriginal {
  status: Lifecycle;
  proposal: Proposal;
  note: string;
  stopped: boolean;
  archived: boolean;
}

export function isLifecycle(v: unknown): v is Lifecycle {
  return typeof v === "string" && (LIFECYCLES as readonly string[]).includes(v);
}

export function isProposal(v: unknown): v is Proposal {
  return typeof v === "string" && (PROPOSALS as readonly string[]).includes(v);
}

export function isDeclaration(v: unknown): v is Declaration {
  return typeof v === "string" && (DECLARATIONS as readonly string[]).includes(v);
}

export function isAfterTurn(v: unknown): v is AfterTurn {
  return typeof v === "string" && (AFTER_TURN as readonly string[]).includes(v);
}

/** A fresh record with every key at its empty value. */
export function emptyRecord(id: string, now = new Date().toISOString()): SessionRecord {
  return {
    session_id: id,
    governed: true,
    project_root: "",
    worktree_path: "",
    branch: "",
    node: "",
    title: "",
    name: "",
    parent: "",
    status: "idle",
    proposal: "",
    note: "",
    harness: "",
    harness_session_id: "",
    launcher: "",
    launch_cmd: "",
    tmux_socket: "",
    tmux_session: "",
    agent_pid: "",
    agent_start: "",
    stopped: false,
    archived: false,
    after_turn: "",
    declared: "",
    launch_readiness_pending: "",
    create_request_id: "",
    create_payload_hash: "",
    createdAt: now,
    updatedAt: now,
  };
}
