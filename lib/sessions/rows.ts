// List rows and detail views. A row carries a bounded one-line preview of the
// prompt (DESIGN.md §1.9), so `ls` stays proportional to the number of sessions.
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { errnoCode } from "../errors";
import { PREVIEW_BYTES, labelOf, previewOf, shortId } from "../naming";
import {
  type DisplayStatus,
  type Liveness,
  type RecordReading,
  displayStatus,
  publicRecord,
  recordLiveness,
} from "../record";
import { type ProjectStore, sessionFolders, sessionPaths } from "../store";
import { readListedRecordFile, readListingIndex, readSession } from "../record";
import { type ListedSession, sideFileAbsent } from "../store/listing-index";
import { groupMembership } from "../coord/groups";
import { readDeclaredFiles } from "./files";
import { sharedFolderExists } from "./exists";
import { queuePositions } from "./queue-order";
import { type ModelPrice, type UsageSummary, emptyUsage, pricesOrDefaults, readUsage, summaryOf } from "../attention/usage";
import { mergedSessions } from "./merged";
import { type OfflineReason, offlineReason } from "../survive/reason";
import { agentBoot } from "../proc";
import { serverRunningShown } from "../tmux";

export interface SessionRow {
  kind: "ok";
  id: string;
  shortId: string;
  label: string;
  name: string;
  title: string;
  node: string;
  branch: string;
  base: string | null;
  worktree: string;
  parent: string;
  /** The group path the session is filed in; "" is the root. */
  group: string;
  lifecycle: string;
  proposal: string;
  note: string;
  display: DisplayStatus;
  liveness: Liveness;
  /** Why the agent of an offline session is gone (lib/survive/reason.ts), or null. */
  offlineReason: OfflineReason | null;
  harness: string;
  launcher: string;
  tmuxSession: string;
  stopped: boolean;
  archived: boolean;
  retired: boolean;
  afterTurn: string;
  preview: string;
  createdAt: string;
  updatedAt: string;
  /** Place in the launch queue (1 launches next), or null when not queued. */
  queuePosition: number | null;
  /** Where in the worktree the agent starts ("" is its top). */
  directory: string;
  /** The spawn options asked of the harness ("" when none). */
  model: string;
  effort: string;
  /** The files the session declared (files.json), at most FILES_IN_ROW; null when that file cannot be read. */
  files: string[] | null;
  /** The bare name parts the label is derived from (seed 001's session object). */
  raw: { name: string; title: string; node: string };
  /** Tokens and cost read from the agent's transcript so far (lib/attention); null before any was read. */
  usage: UsageSummary | null;
  /** What holds the agent up (rate_limited, auth_required), or null. */
  stall: string | null;
  /** `spex session merge` landed its branch, and the branch has no commits since. */
  merged: boolean;
  /** Workspace (lib/workspace): `failed` while its last setup failed, else ""; the port block it holds (`first-last`) or null; its sandbox ("", on, no-network). */
  setup: string;
  ports: string | null;
  sandbox: string;
}

/** A record no writer may touch: corrupt bytes, a record that is not its folder's, or one the system refused to read. */
export interface CorruptRow {
  kind: "corrupt";
  id: string;
  shortId: string;
  display: "corrupt" | "unreadable";
  liveness: "unknown";
  file: string;
  error: string;
}

export type ListRow = SessionRow | CorruptRow;

let headBuffer = Buffer.allocUnsafe(PREVIEW_BYTES);

function readHead(file: string, bytes: number): string {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return "";
    throw e;
  }
  try {
    // One buffer for every row of a listing: the text is decoded out of it before the next read.
    if (headBuffer.length < bytes) headBuffer = Buffer.allocUnsafe(bytes);
    const n = readSync(fd, headBuffer, 0, bytes, 0);
    return headBuffer.toString("utf8", 0, n);
  } finally {
    closeSync(fd);
  }
}

/** What a listing reads once for all its rows; a single row reads them itself. */
export interface ListingFacts {
  /** Session id → group path. */
  groups: Map<string, string>;
  /** Session id → place in the launch queue. */
  queue: Map<string, number>;
  /** The price overrides in force (read once per listing). */
  prices?: Record<string, ModelPrice>;
  /** Sessions whose branch landed and has not moved since. */
  merged: Set<string>;
  /** What the listing index says of each session (lib/store/listing-index.ts): previews, and side files known absent. */
  listing?: Map<string, ListedSession>;
}

/**
 * The files of a session's folder that its row reads (rowOf and the listing's
 * facts): the record, the prompt (preview), files.json, usage.json and
 * merged.json. Watchers of the store (the board, the dashboard's feed) react
 * to these names only: a setup script's log, the timeline, a pid file or a
 * budget marker written many times a second changes no row. Keep this beside
 * rowOf: a side file a row starts reading belongs here too.
 */
export const ROW_FILES: ReadonlySet<string> = new Set(["session.json", "prompt", "files.json", "usage.json", "merged.json"]);

/** Whether a file event in a session's folder can change its row; an event without a name (some platforms give none) counts. */
export function changesRow(name: string | null | undefined): boolean {
  return !name || ROW_FILES.has(name);
}

const REASON_FACTS = { get boot() { return agentBoot(); }, serverRunning: serverRunningShown };

export function rowOf(store: ProjectStore, reading: RecordReading, facts?: ListingFacts): ListRow | undefined {
  if (reading.kind === "absent") return undefined;
  if (reading.kind === "corrupt") {
    const display = reading.unreadable ? "unreadable" : "corrupt";
    return { kind: "corrupt", id: reading.id, shortId: shortId(reading.id, 8), display, liveness: "unknown", file: reading.file, error: reading.error };
  }
  const view = publicRecord(reading.record, reading.pending);
  const listed = facts?.listing?.get(reading.id);
  const liveness = reading.retired ? "offline" : recordLiveness(view, reading.pending !== null);
  // Only a launched session that is not running has a reason; a starting or queued one is on its way.
  const reason = liveness === "offline" && !reading.retired && !reading.pending && view.status !== "queued" ? offlineReason(view, REASON_FACTS) : null;
  return {
    kind: "ok",
    id: view.session_id,
    shortId: shortId(view.session_id, 8),
    label: labelOf(view),
    name: view.name,
    title: view.title,
    node: view.node,
    branch: view.branch,
    base: view.base ?? null,
    worktree: view.worktree_path,
    parent: view.parent,
    group: (facts?.groups ?? groupMembership(store)).get(view.session_id) ?? "",
    lifecycle: view.status,
    proposal: view.proposal,
    note: previewOf(view.note, 200),
    display: displayStatus(reading, liveness),
    liveness,
    offlineReason: reason,
    harness: view.harness,
    launcher: view.launcher,
    tmuxSession: view.tmux_session,
    stopped: view.stopped,
    archived: view.archived,
    retired: reading.retired,
    afterTurn: view.after_turn,
    preview: listed?.preview ?? previewOf(readHead(sessionPaths(store, reading.id).prompt, PREVIEW_BYTES)),
    createdAt: view.createdAt,
    updatedAt: view.updatedAt,
    queuePosition: view.status === "queued" ? ((facts?.queue ?? queuePositions(readAll(store))).get(view.session_id) ?? null) : null,
    directory: view.directory ?? "",
    model: view.model ?? "",
    effort: view.effort ?? "",
    files: readDeclaredFiles(sessionPaths(store, reading.id).files),
    raw: { name: view.name, title: view.title, node: view.node },
    usage: summaryOf(sideFileAbsent(listed, "usage.json") ? emptyUsage() : readUsage(store, reading.id), facts?.prices ?? pricesOrDefaults(store.home, store.root)),
    stall: view.stall || null,
    merged: (facts?.merged ?? mergedSessions(store, [reading])).has(view.session_id),
    setup: view.setup ?? "",
    ports: view.ports || null,
    sandbox: view.sandbox ?? "",
  };
}

/** Every reading of the project, corrupt ones included. */
export function readAll(store: ProjectStore): RecordReading[] {
  // Each folder's record is read as it is: a folder without one reads absent, with no stat of it first.
  // The listing's entry types tell a real folder from a link, so its records need no check of their folder.
  const readings: RecordReading[] = [];
  const worktreeExists = sharedFolderExists();
  for (const { id, realFolder } of sessionFolders(store)) {
    const reading = realFolder ? readListedRecordFile(sessionPaths(store, id).record, id, worktreeExists) : readSession(store, id);
    if (reading.kind !== "absent") readings.push(reading);
  }
  return readings;
}

export function listRows(store: ProjectStore): ListRow[] {
  const rows: ListRow[] = [];
  const readings = readAll(store);
  // One listing of the index spares each row its preview read and the side-file lookups it vouches for.
  const listing = readListingIndex(store.dir);
  const facts: ListingFacts = { groups: groupMembership(store), queue: queuePositions(readings), merged: mergedSessions(store, readings, listing), prices: pricesOrDefaults(store.home, store.root), listing };
  for (const reading of readings) {
    const row = rowOf(store, reading, facts);
    if (row) rows.push(row);
  }
  return rows.sort((a, b) => {
    const ta = a.kind === "ok" ? a.createdAt : "";
    const tb = b.kind === "ok" ? b.createdAt : "";
    // ISO times and UUIDs: code-unit order is their order, without the cost of a collator.
    return ta === tb ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : ta < tb ? -1 : 1;
  });
}

export interface SessionDetail {
  row: ListRow;
  /** The full prompt (detail views only). */
  prompt: string;
  /** The full note (rows carry a preview). */
  note: string;
  record: Record<string, unknown> | null;
  lastScreen: string | null;
}

export function detailOf(store: ProjectStore, reading: RecordReading): SessionDetail | undefined {
  const row = rowOf(store, reading);
  if (!row) return undefined;
  const paths = sessionPaths(store, reading.id);
  let prompt = "";
  try {
    prompt = readFileSync(paths.prompt, "utf8");
  } catch (e) {
    if (errnoCode(e) !== "ENOENT") throw e;
  }
  let lastScreen: string | null = null;
  try {
    lastScreen = readFileSync(paths.lastScreen, "utf8");
  } catch (e) {
    if (errnoCode(e) !== "ENOENT") throw e;
  }
  const view = reading.kind === "ok" ? publicRecord(reading.record, reading.pending) : null;
  return {
    row,
    prompt,
    note: view?.note ?? "",
    record: view ? (view as unknown as Record<string, unknown>) : null,
    lastScreen,
  };
}
