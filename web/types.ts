// The API's shapes as the page reads them (docs/backend.md, docs/review.md).
// Kept here rather than imported from lib/: the page is typechecked with the
// DOM library and no Node types; test/types/web-api.ts checks they still fit.
export interface OkRow {
  kind: "ok";
  id: string;
  shortId: string;
  label: string;
  name: string;
  node: string;
  branch: string;
  base: string | null;
  worktree: string;
  parent: string;
  group: string;
  lifecycle: string;
  proposal: string;
  note: string;
  display: string;
  liveness: string;
  /** Why the agent of an offline session is gone: machine_restarted, tmux_server_gone, agent_exited, killed (null otherwise). */
  offlineReason?: string | null;
  harness: string;
  launcher: string;
  tmuxSession: string;
  stopped: boolean;
  archived: boolean;
  retired: boolean;
  preview: string;
  createdAt: string;
  updatedAt: string;
  /** Place in the launch queue (1 launches next), or null when not queued. */
  queuePosition: number | null;
  /** `spex session merge` landed its branch, which has no commits since. */
  merged: boolean;
  /** Tokens and cost from the agent's transcript (lib/attention); null before any; absent from an older backend. */
  usage?: { total: number; costUsd: number | null } | null;
}

export interface CorruptRow {
  kind: "corrupt";
  id: string;
  shortId: string;
  display: "corrupt" | "unreadable";
  liveness: "unknown";
  file: string;
  error: string;
  createdAt?: undefined;
  parent?: undefined;
}

export type Row = OkRow | CorruptRow;

export interface Detail {
  row: Row;
  prompt: string;
  note: string;
  lastScreen: string;
  screen: string | null;
}

export type Sender =
  | { kind: "session"; id: string; label: string }
  | { kind: "watch"; id: string; label: string }
  | { kind: "name"; name: string }
  | { kind: "user" };

export type TimelineEvent = { seq: number; at: string } & (
  | { kind: "state"; status: string; prev: string; proposal: string; note: string; stopped: boolean; archived: boolean }
  | { kind: "message_in"; messageId: string; from: Sender; text?: string; keys?: string[] }
  | { kind: "message_out"; messageId: string; to: string }
  | { kind: "merge"; into: string; landing: string; branch: string; branchHead: string; before: string; after: string; commits: number; workCommit: string }
  | { kind: "other"; [field: string]: unknown }
);

export interface DiffFile {
  path: string;
  oldPath?: string;
  status: string;
  additions: number;
  deletions: number;
  binary: boolean;
}

export interface SessionDiff {
  id: string;
  branch: string;
  into: string;
  forkPoint: string;
  head: string;
  uncommitted: string[];
  files: DiffFile[];
  additions: number;
  deletions: number;
  patch?: string;
  truncated?: boolean;
}

export interface MergeResult {
  landing: string;
  branch: string;
  into: string;
  commits: number;
  before: string;
  after: string;
  workCommit: string;
  closed: boolean;
}
