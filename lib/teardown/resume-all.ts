// `resume --all` (issue 27 item 3, DESIGN.md §15): bring back every session
// whose agent died under it (the machine restarted, its tmux server went, the
// agent exited) into its own conversation, within `sessions.maxActive`.
//
// Every chosen session joins the launch queue (lib/create/launch-queue.ts),
// marked to resume rather than start afresh, and the queue is drained: the
// free slots launch the oldest at once, the rest wait for a slot like any
// queued session. Claims are made under the project lock, so two `resume
// --all` (or a listing draining at the same moment) launch each session once.
// Messages sent meanwhile wait in its delivery queue and are handed over once
// it is at rest again; `--note` adds one for a session that died mid-turn.
import { loadConfig } from "../config";
import { SpexError } from "../errors";
import { faultPoint } from "../faults";
import { type SessionRecord, publicRecord, readSession, updateRecord } from "../record";
import { type ProjectStore, listProjectKeys, projectLockPath, storeForKey } from "../store";
import { withLock } from "../lock";
import { probeLeaf } from "../proc";
import { type ListRow, type SessionRow, launchQueue, readAll } from "../sessions";
import { listRowsSettled } from "../launch/stale";
import { checkLaunchable, everLaunched, waitForReadiness } from "../launch";
import { readinessTimeout } from "../launch/fence";
import { keepQueueMarker } from "../launch/queue-marker";
import { drainLaunchQueue, queuePositionOf, usedSlots } from "../create/launch-queue";
import { harnessAdapter } from "../harness";
import { sendMessage } from "../comms/send";
import { runsTypedText } from "../comms/envelope";
import { type OfflineReason, RESUMABLE_REASONS } from "../survive/reason";
import { clearResumeQueued, markResumeQueued } from "../survive/resume-marker";
import { hasTmuxSession } from "./runtime";
import { sessionProcesses } from "./strays";
import { refuseSpentBudget } from "./resume";
import { stopSession } from "./stop";

export interface ResumeAllFilter {
  /** The reasons to bring back (default: machine_restarted, tmux_server_gone, agent_exited). */
  reasons?: readonly OfflineReason[];
  /** Display statuses or lifecycles (as `ls --status` takes them); any when absent. */
  statuses?: readonly string[];
  /** A group path: its sessions and those of its subgroups. */
  group?: string;
}

export interface ResumeAllOptions {
  /** Plan only: change nothing. */
  dryRun?: boolean;
  /** Told to each session that died mid-turn (working or asking), as a message once it runs again. */
  note?: string;
  /** Wait for the sessions launched now to be ready (default true). */
  wait?: boolean;
  timeoutMs?: number;
}

export type ResumeOutcome = "planned" | "launched" | "queued" | "failed" | "skipped";

export interface ResumeEntry {
  project: string;
  id: string;
  shortId: string;
  label: string;
  harness: string;
  reason: OfflineReason;
  /** A slot is free for it now (`launch`), or it waits in the launch queue (`queue`). */
  decision: "launch" | "queue";
  outcome: ResumeOutcome;
  /** Its place in the launch queue (1 launches next) when it waits; null otherwise. */
  queuePosition: number | null;
  /** Its agent proved ready (null: not launched now, or not waited for). */
  ready: boolean | null;
  /** It died mid-turn and the note was queued for it. */
  noted: boolean;
  error: { code: string; message: string } | null;
}

export interface ProjectSlots {
  root: string;
  maxActive: number;
  /** Slots in use before this run (live agents, launches under way). */
  used: number;
  /** Sessions already waiting in the queue before this run (they keep their place). */
  waitingBefore: number;
}

export interface ResumeAllResult {
  dryRun: boolean;
  reasons: OfflineReason[];
  projects: ProjectSlots[];
  entries: ResumeEntry[];
  /** launched/queued: what happened; planned: what a dry run would do (or did, beside failures). */
  summary: { selected: number; launched: number; queued: number; failed: number; skipped: number; planned: { launch: number; queue: number } };
}

const MID_TURN = new Set(["active", "asking"]);

/** Every project of SPEX_HOME with at least one record, as a store rooted at its main checkout. */
export function fleetStores(home: string, accept: (root: string) => boolean = () => true): ProjectStore[] {
  const stores: ProjectStore[] = [];
  for (const key of listProjectKeys(home)) {
    const first = readAll(storeForKey(home, key, "")).find((r) => r.kind === "ok");
    const root = first?.kind === "ok" ? first.record.project_root : "";
    if (root && accept(root)) stores.push(storeForKey(home, key, root));
  }
  return stores;
}

function inGroup(row: SessionRow, group: string | undefined): boolean {
  if (group === undefined) return true;
  const g = group.replace(/^\/+|\/+$/g, "");
  return g === "" || row.group === g || row.group.startsWith(`${g}/`);
}

/** The rows `resume --all` takes: an agent gone for one of the reasons, not archived (archive --restore first), oldest first. */
export function resumeCandidates(rows: readonly ListRow[], filter: ResumeAllFilter): SessionRow[] {
  const reasons = filter.reasons ?? RESUMABLE_REASONS;
  return rows
    .filter((r): r is SessionRow => r.kind === "ok")
    .filter((r) => r.offlineReason !== null && reasons.includes(r.offlineReason) && !r.archived && !r.retired)
    .filter((r) => !filter.statuses || filter.statuses.includes(r.display) || filter.statuses.includes(r.lifecycle))
    .filter((r) => inGroup(r, filter.group))
    .sort((a, b) => (a.createdAt === b.createdAt ? a.id.localeCompare(b.id) : a.createdAt < b.createdAt ? -1 : 1));
}

function entryOf(store: ProjectStore, row: SessionRow): ResumeEntry {
  return {
    project: store.root,
    id: row.id,
    shortId: row.shortId,
    label: row.label,
    harness: row.harness,
    reason: row.offlineReason!,
    decision: "queue",
    outcome: "planned",
    queuePosition: null,
    ready: null,
    noted: false,
    error: null,
  };
}

function fail(entry: ResumeEntry, e: unknown): void {
  entry.outcome = "failed";
  entry.error = e instanceof SpexError ? { code: e.code, message: e.message } : { code: "internal_error", message: (e as Error).message };
}

/** What resume would relaunch with; a refusal when there is no conversation to go back to. */
function refuseUnresumable(store: ProjectStore, record: SessionRecord): void {
  const adapter = harnessAdapter(record.harness || "shell");
  if (!everLaunched(store, record.session_id) || (!record.harness_session_id && adapter.name !== "shell")) {
    throw new SpexError("resume_unavailable", `session ${record.session_id.slice(0, 8)} has no recorded ${adapter.name} session id to resume`, {
      hint: "the agent never reported its native id; close the session and start a new one",
    });
  }
}

/** The order the queue would take the waiting and the chosen sessions in, and how many start now. */
function plan(store: ProjectStore, entries: ResumeEntry[], rows: Map<string, SessionRow>): ProjectSlots {
  const config = loadConfig(store.root);
  const readings = readAll(store);
  const used = usedSlots(readings, config);
  const waiting = launchQueue(readings).map((r) => ({ id: r.id, createdAt: r.record.createdAt }));
  const line = [...waiting, ...entries.filter((e) => e.outcome === "planned").map((e) => ({ id: e.id, createdAt: rows.get(e.id)!.createdAt }))];
  line.sort((a, b) => (a.createdAt === b.createdAt ? a.id.localeCompare(b.id) : a.createdAt < b.createdAt ? -1 : 1));
  const free = Math.max(0, config.maxActive - used);
  const byId = new Map(entries.map((e) => [e.id, e]));
  line.forEach((item, i) => {
    const e = byId.get(item.id);
    if (!e) return;
    e.decision = i < free ? "launch" : "queue";
    e.queuePosition = i < free ? null : i - free + 1;
  });
  return { root: store.root, maxActive: config.maxActive, used, waitingBefore: waiting.length };
}

/** Clear what a gone agent left (a dead pane kept by remain-on-exit, a daemon it started), so the relaunch finds the way free. */
async function clearLeftovers(store: ProjectStore, row: SessionRow): Promise<void> {
  const reading = readSession(store, row.id);
  if (reading.kind !== "ok") return;
  const record = publicRecord(reading.record, reading.pending);
  // Nothing of an earlier boot still runs.
  const strays = row.offlineReason === "machine_restarted" ? [] : sessionProcesses(store, row.id, record);
  if (hasTmuxSession(record) || strays.length > 0) await stopSession(store, row.id, { drain: false, leftovers: true });
}

/** Under the project lock: each still-gone session joins the queue, marked to resume. */
async function enqueue(store: ProjectStore, entries: ResumeEntry[]): Promise<void> {
  await withLock(
    projectLockPath(store),
    async () => {
      for (const e of entries) {
        if (e.outcome !== "planned") continue;
        markResumeQueued(store, e.id);
        const change = await updateRecord(
          store,
          e.id,
          (r, ctx) => {
            // Relaunched or queued by someone else since it was listed: theirs to finish.
            if (ctx.pending || ctx.retired || r.status === "queued") return undefined;
            if (r.agent_pid && probeLeaf(r.agent_pid, r.agent_start) === "owned") return undefined;
            // Its pid names nobody now: forgotten, so a process wearing that number later is never taken for it.
            return { ...r, status: "queued" as const, stopped: true, archived: false, agent_pid: "", agent_start: "" };
          },
          { reason: "resume-queue", purpose: `queue ${e.id} to resume` },
        ).catch((err: unknown) => {
          fail(e, err);
          return undefined;
        });
        if (change) e.outcome = "queued";
        else {
          clearResumeQueued(store, e.id);
          if (e.outcome === "planned") {
            e.outcome = "skipped";
            e.error = { code: "session_running", message: `session ${e.shortId} is already starting, running or queued` };
          }
        }
      }
      if (entries.some((e) => e.outcome === "queued")) keepQueueMarker(store);
    },
    { purpose: "queue sessions to resume" },
  );
}

async function resumeProject(store: ProjectStore, filter: ResumeAllFilter, opts: ResumeAllOptions): Promise<{ slots: ProjectSlots; entries: ResumeEntry[] }> {
  const rows = resumeCandidates(await listRowsSettled(store), filter);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const entries = rows.map((r) => entryOf(store, r));
  const midTurn = new Set<string>();
  // Refusals this machine settles (no conversation, no worktree, no branch, no launcher) come first and change nothing.
  for (const e of entries) {
    const reading = readSession(store, e.id);
    try {
      if (reading.kind !== "ok") throw new SpexError("record_corrupt", `session ${e.shortId} cannot be read`);
      refuseUnresumable(store, reading.record);
      await checkLaunchable(store, e.id);
      if (MID_TURN.has(reading.record.status)) midTurn.add(e.id);
    } catch (err) {
      fail(e, err);
      continue;
    }
    try {
      // Parked by its budget: left be, as a plain resume leaves it (raising the limit is a person's call).
      refuseSpentBudget(store, e.id);
    } catch (err) {
      fail(e, err);
      e.outcome = "skipped";
    }
  }
  const slots = plan(store, entries, byId);
  if (opts.dryRun) return { slots, entries };

  for (const e of entries) {
    if (e.outcome !== "planned") continue;
    await clearLeftovers(store, byId.get(e.id)!).catch((err) => fail(e, err));
  }
  faultPoint("resume-leftovers-cleared");
  await enqueue(store, entries);
  if (opts.note) {
    for (const e of entries) {
      if (e.outcome !== "queued" || !midTurn.has(e.id) || runsTypedText(e.harness)) continue;
      await sendMessage(store, { target: e.id, from: { kind: "user" }, text: opts.note, keys: [], deliver: false })
        .then(() => (e.noted = true))
        .catch(() => undefined);
    }
  }
  const drain = await drainLaunchQueue(store, { force: true, wait: false });
  const launched = new Set(drain.launched);
  for (const err of drain.failed) {
    const e = entries.find((x) => x.id === err.details.session);
    if (e) fail(e, err);
  }
  // Taken from the queue by this run's drain, or by one running beside it (another `resume --all`, a hook's): it is
  // launching either way. The drain above waited for the project lock, so a claim made before it is seen here.
  const taken = (id: string) => {
    const r = readSession(store, id);
    // Claimed (its fence up) or running (an agent recorded); one a drain failed to launch has neither.
    return r.kind === "ok" && r.record.status !== "queued" && (r.pending !== null || r.record.agent_pid !== "");
  };
  const waits: Promise<void>[] = [];
  for (const e of entries) {
    if (e.outcome !== "queued") continue;
    if (launched.has(e.id) || taken(e.id)) {
      e.outcome = "launched";
      e.decision = "launch";
      e.queuePosition = null;
      if (opts.wait !== false) {
        waits.push(
          waitForReadiness(store, e.id, "hook", opts.timeoutMs ?? readinessTimeout()).then(
            (r) => void (e.ready = r.ready),
            (err) => fail(e, err),
          ),
        );
      }
    } else {
      e.decision = "queue";
      e.queuePosition = queuePositionOf(store, e.id);
    }
  }
  await Promise.all(waits);
  return { slots, entries };
}

/** Bring back the sessions of these projects whose agents died (see above). */
export async function resumeAll(stores: readonly ProjectStore[], filter: ResumeAllFilter = {}, opts: ResumeAllOptions = {}): Promise<ResumeAllResult> {
  const projects: ProjectSlots[] = [];
  const entries: ResumeEntry[] = [];
  for (const store of stores) {
    const done = await resumeProject(store, filter, opts);
    projects.push(done.slots);
    entries.push(...done.entries);
  }
  const count = (o: ResumeOutcome) => entries.filter((e) => e.outcome === o).length;
  return {
    dryRun: opts.dryRun === true,
    reasons: [...(filter.reasons ?? RESUMABLE_REASONS)],
    projects,
    entries,
    summary: {
      selected: entries.length,
      launched: count("launched"),
      queued: count("queued"),
      failed: count("failed"),
      skipped: count("skipped"),
      planned: {
        launch: entries.filter((e) => e.outcome !== "failed" && e.outcome !== "skipped" && e.decision === "launch").length,
        queue: entries.filter((e) => e.outcome !== "failed" && e.outcome !== "skipped" && e.decision === "queue").length,
      },
    },
  };
}
