// Read-modify-write of one record under its lock. Every writer refuses a
// corrupt record and an absent one; lifecycle writers also refuse a retired one.
import { SpexError } from "../errors";
import { faultPoint } from "../faults";
import { withLock } from "../lock";
import { type ProjectStore, recordLockPath, sessionPaths } from "../store";
import { type RecordReading, publicRecord, readRecordFile, writeRecordFile } from "./file";
import { parsePending, serializeRecord } from "./codec";
import type { PendingOriginal, SessionRecord } from "./schema";

export interface RecordChange {
  store: ProjectStore;
  before: SessionRecord;
  after: SessionRecord;
  /** What readers saw before and see after (the readiness fence overlays the frozen original). */
  beforeView: SessionRecord;
  afterView: SessionRecord;
  /** Free-form tag of what changed ("state", "rename", "launch", …) for observers. */
  reason: string;
}

/**
 * Observers run after a write commits: `underLock` while the record lock is
 * still held (durable timeline appends), `afterRelease` once it is released
 * (deliveries). Registered by higher layers so the record module stays at the bottom.
 */
export interface CommitObserver {
  underLock?(change: RecordChange): void | Promise<void>;
  afterRelease?(change: RecordChange): void | Promise<void>;
}

const observers: CommitObserver[] = [];
export function registerCommitObserver(observer: CommitObserver): void {
  if (!observers.includes(observer)) observers.push(observer);
}

export function readSession(store: ProjectStore, id: string): RecordReading {
  return readRecordFile(sessionPaths(store, id).record, id);
}

export function refuseUnusable(reading: RecordReading, opts: { allowRetired?: boolean } = {}): asserts reading is Extract<RecordReading, { kind: "ok" }> {
  if (reading.kind === "absent") {
    throw new SpexError("record_absent", `session ${reading.id} has no record`, {
      hint: "check the id with `spex session ls --all`",
      httpStatus: 404,
    });
  }
  if (reading.kind === "corrupt" && reading.unreadable) {
    throw new SpexError("record_unreadable", `the record ${reading.file} cannot be read (${reading.error}); nothing was changed`, {
      hint: "check that file's permissions and the disk; nothing was changed",
      details: { file: reading.file, readError: reading.error },
    });
  }
  if (reading.kind === "corrupt") {
    throw new SpexError("record_corrupt", `the record ${reading.file} is corrupt (${reading.error}); nothing was changed`, {
      hint: "inspect the file; once its runtime is gone, `spex session quarantine` files it away",
      details: { file: reading.file, parseError: reading.error },
    });
  }
  if (reading.retired && !opts.allowRetired) {
    throw new SpexError("record_retired", `session ${reading.id} is retired: its worktree ${reading.record.worktree_path} is gone`, {
      hint: `only close remains: spex session close ${reading.id.slice(0, 8)}`,
    });
  }
}

export interface UpdateContext {
  pending: PendingOriginal | null;
  retired: boolean;
}

export interface UpdateOptions {
  allowRetired?: boolean;
  reason?: string;
  purpose?: string;
}

/**
 * The facts that qualify another field leave with it: the agent's boot with
 * its pid, who stopped it once it runs again (a launch under way keeps it
 * until the fence settles, so a launch that fails restores it whole).
 */
function withQualifiersSettled(record: SessionRecord): SessionRecord {
  const next = { ...record };
  if (!next.agent_pid) delete next.agent_boot;
  if (!next.stopped && !next.launch_readiness_pending) delete next.stopped_by;
  return next;
}

/**
 * The same write for a caller that already holds the record's lock and has read
 * the record under it (close, under its locks): fields a later reader needs if
 * the caller dies before it finishes, none a reader sees as a state change, so
 * no observer runs. The writer stamps updatedAt.
 */
export function writeHeldRecord(reading: Extract<RecordReading, { kind: "ok" }>, fields: Partial<SessionRecord>): void {
  writeRecordFile(reading.file, withQualifiersSettled({ ...reading.record, ...fields, updatedAt: new Date().toISOString() }));
}

/**
 * Apply `mutate` to the stored record under its lock. Returning undefined (or
 * a record equal to the stored one) writes nothing. The writer stamps updatedAt.
 */
export async function updateRecord(
  store: ProjectStore,
  id: string,
  mutate: (record: SessionRecord, ctx: UpdateContext) => SessionRecord | undefined,
  opts: UpdateOptions = {},
): Promise<RecordChange | undefined> {
  let change: RecordChange | undefined;
  await withLock(
    recordLockPath(store, id),
    async () => {
      const reading = readSession(store, id);
      refuseUnusable(reading, opts);
      const before = reading.record;
      const mutated = mutate({ ...before }, { pending: reading.pending, retired: reading.retired });
      const next = mutated && withQualifiersSettled(mutated);
      // Nothing to write when mutate declines or hands back the record unchanged.
      if (!next || serializeRecord(next) === serializeRecord(before)) return;
      const after = { ...next, updatedAt: new Date().toISOString() };
      writeRecordFile(reading.file, after);
      faultPoint("record-written");
      change = {
        store,
        before,
        after,
        beforeView: publicRecord(before, reading.pending),
        afterView: publicRecord(after, parsePending(after.launch_readiness_pending)),
        reason: opts.reason ?? "update",
      };
      try {
        for (const o of observers) await o.underLock?.(change);
      } catch (e) {
        // The change's timeline event did not land (a full disk): put the record back as it was, so
        // the failure the caller reports is the whole truth and a retry makes the change and its event.
        try {
          writeRecordFile(reading.file, before);
        } catch {
          // the record keeps the change; the error below still says why its event is missing
        }
        throw e;
      }
    },
    { purpose: opts.purpose ?? `update ${id}` },
  );
  if (change) for (const o of observers) await o.afterRelease?.(change);
  return change;
}
