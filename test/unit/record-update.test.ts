// Read-modify-write under the record lock, the writer's refusals, commit
// observers, and the derived display status.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lockHolder } from "../../lib/lock";
import { selfIdentity } from "../../lib/proc";
import {
  type Liveness,
  type RecordChange,
  type RecordReading,
  type SessionRecord,
  displayStatus,
  emptyRecord,
  publicRecord,
  readSession,
  recordLiveness,
  registerCommitObserver,
  updateRecord,
  writeRecordFile,
} from "../../lib/record";
import { type ProjectStore, projectStore, recordLockPath, sessionPaths } from "../../lib/store";
import { SpexError } from "../../lib/errors";
import { anotherStart } from "../support/processes";

let dir: string;
let store: ProjectStore;
let worktree: string;
const ID = "aaaaaaaa-0000-4000-8000-000000000001";

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "spex-update-")));
  store = projectStore(join(dir, "repo"), join(dir, "home"));
  worktree = join(dir, "wt");
  mkdirSync(worktree);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function seed(fields: Partial<SessionRecord> = {}): string {
  const paths = sessionPaths(store, ID);
  mkdirSync(paths.dir, { recursive: true });
  writeRecordFile(paths.record, { ...emptyRecord(ID, "2026-01-01T00:00:00.000Z"), worktree_path: worktree, ...fields });
  return paths.record;
}

async function refusal(p: Promise<unknown>): Promise<SpexError> {
  const e = await p.then(
    () => undefined,
    (err) => err,
  );
  expect(e).toBeInstanceOf(SpexError);
  return e as SpexError;
}

describe("updateRecord", () => {
  test("applies the change, stamps updatedAt and leaves the lock free", async () => {
    const file = seed();
    const change = await updateRecord(store, ID, (r) => ({ ...r, name: "renamed" }));
    expect(change?.before.name).toBe("");
    expect(change?.after.name).toBe("renamed");
    const reading = readSession(store, ID);
    expect(reading.kind === "ok" && reading.record.name).toBe("renamed");
    expect(reading.kind === "ok" && reading.record.updatedAt).not.toBe("2026-01-01T00:00:00.000Z");
    expect(lockHolder(recordLockPath(store, ID))).toBeUndefined();
    expect(file).toBe(reading.file);
  });

  test("writes nothing when the mutation returns undefined", async () => {
    const file = seed();
    const before = readFileSync(file);
    expect(await updateRecord(store, ID, () => undefined)).toBeUndefined();
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  test("refuses a corrupt record with record_corrupt and leaves its bytes unchanged", async () => {
    const file = seed();
    const bytes = readFileSync(file, "utf8").replace('"status": "idle"', '"status": "bogus"');
    writeFileSync(file, bytes);
    const e = await refusal(updateRecord(store, ID, (r) => ({ ...r, status: "active" })));
    expect(e.code).toBe("record_corrupt");
    expect(e.message).toContain(file);
    expect(e.details.parseError).toMatch(/bogus/);
    expect(readFileSync(file, "utf8")).toBe(bytes);
  });

  test("refuses an absent record with record_absent and creates nothing", async () => {
    const e = await refusal(updateRecord(store, ID, (r) => r));
    expect(e.code).toBe("record_absent");
    expect(() => readFileSync(sessionPaths(store, ID).record)).toThrow();
  });

  test("refuses a retired record unless the writer allows it", async () => {
    const file = seed({ status: "idle" });
    rmSync(worktree, { recursive: true });
    const before = readFileSync(file, "utf8");
    const e = await refusal(updateRecord(store, ID, (r) => ({ ...r, status: "active" })));
    expect(e.code).toBe("record_retired");
    expect(readFileSync(file, "utf8")).toBe(before);
    const renamed = await updateRecord(store, ID, (r) => ({ ...r, name: "x" }), { allowRetired: true });
    expect(renamed?.after.name).toBe("x");
  });

  test("a session.json that is a directory is refused as corrupt, never repaired", async () => {
    mkdirSync(sessionPaths(store, ID).record, { recursive: true });
    await expect(updateRecord(store, ID, (r) => ({ ...r, note: "x" }))).rejects.toMatchObject({ code: "record_corrupt" });
    expect(readdirSync(sessionPaths(store, ID).record)).toEqual([]);
  });

  test("a session.json linked to another session's record is refused: neither file changes", async () => {
    const other = "bbbbbbbb-0000-4000-8000-000000000002";
    const otherPaths = sessionPaths(store, other);
    mkdirSync(otherPaths.dir, { recursive: true });
    writeRecordFile(otherPaths.record, { ...emptyRecord(other, "2026-01-01T00:00:00.000Z"), worktree_path: worktree, name: "B" });
    const before = readFileSync(otherPaths.record, "utf8");
    mkdirSync(sessionPaths(store, ID).dir, { recursive: true });
    symlinkSync(otherPaths.record, sessionPaths(store, ID).record);
    const e = await refusal(updateRecord(store, ID, (r) => ({ ...r, name: "renamed through the link" })));
    expect(e.code).toBe("record_corrupt");
    expect(readFileSync(otherPaths.record, "utf8")).toBe(before);
    expect(lstatSync(sessionPaths(store, ID).record).isSymbolicLink()).toBe(true);
  });

  test("commit observers run under the lock, then after its release, once per write", async () => {
    seed();
    const seen: string[] = [];
    const lock = recordLockPath(store, ID);
    registerCommitObserver({
      underLock: (c: RecordChange) => {
        if (c.after.session_id !== ID || c.reason !== "observed") return;
        seen.push(`under:${lockHolder(lock)?.pid === process.pid}:${c.after.note}`);
      },
      afterRelease: (c: RecordChange) => {
        if (c.after.session_id !== ID || c.reason !== "observed") return;
        seen.push(`after:${lockHolder(lock) === undefined}:${c.after.note}`);
      },
    });
    await updateRecord(store, ID, (r) => ({ ...r, note: "one" }), { reason: "observed" });
    await updateRecord(store, ID, () => undefined, { reason: "observed" });
    expect(seen).toEqual(["under:true:one", "after:true:one"]);
  });
});

describe("the facts that qualify another field (issue 27)", () => {
  const stored = () => {
    const r = readSession(store, ID);
    if (r.kind !== "ok") throw new Error("not ok");
    return r.record;
  };

  test("agent_boot leaves with agent_pid; a record that never had either keeps its exact bytes", async () => {
    const file = seed({ agent_pid: "123", agent_start: "456", agent_boot: "boot-a" });
    expect(readFileSync(file, "utf8")).toContain('"agent_boot": "boot-a"');
    await updateRecord(store, ID, (r) => ({ ...r, agent_pid: "", agent_start: "" }));
    expect(stored().agent_boot).toBeUndefined();
    expect(readFileSync(file, "utf8")).not.toContain("agent_boot");
    expect(readFileSync(file, "utf8")).not.toContain("stopped_by");
  });

  test("stopped_by stands while stopped, rides a launch's fence, and leaves once the agent runs again", async () => {
    seed({ stopped: true, stopped_by: "spex" });
    await updateRecord(store, ID, (r) => ({ ...r, launch_readiness_pending: JSON.stringify({ status: "idle", proposal: "", note: "", stopped: true, archived: false }), stopped: false }));
    expect(stored().stopped_by).toBe("spex");
    await updateRecord(store, ID, (r) => ({ ...r, launch_readiness_pending: "" }));
    expect(stored().stopped_by).toBeUndefined();
  });
});

describe("display status", () => {
  const me = selfIdentity();
  function reading(fields: Partial<SessionRecord>, extra: { retired?: boolean; pending?: boolean } = {}): RecordReading {
    const record = { ...emptyRecord(ID), ...fields };
    const pending = extra.pending ? { status: "idle" as const, proposal: "" as const, note: "frozen", stopped: false, archived: false } : null;
    return { kind: "ok", id: ID, file: "f", record, pending, retired: extra.retired ?? false };
  }
  const cases: [string, RecordReading, Liveness, string][] = [
    ["active and live", reading({ status: "active" }), "online", "working"],
    ["idle and live", reading({ status: "idle" }), "online", "idle"],
    ["awaiting and live", reading({ status: "awaiting" }), "online", "idle"],
    ["asking and live", reading({ status: "asking" }), "online", "asking"],
    ["parked and live", reading({ status: "parked" }), "online", "parked"],
    ["error and live", reading({ status: "error" }), "online", "error"],
    ["active but no live agent", reading({ status: "active" }), "offline", "offline"],
    ["queued whatever the liveness", reading({ status: "queued" }), "offline", "queued"],
    ["merge proposed", reading({ status: "awaiting", proposal: "merge" }), "offline", "review"],
    ["nothing proposed", reading({ status: "awaiting", proposal: "nothing" }), "online", "done"],
    ["close proposed", reading({ status: "awaiting", proposal: "close" }), "online", "close-pending"],
    ["worktree gone", reading({ status: "active", proposal: "merge" }, { retired: true }), "online", "retired"],
    ["readiness fence up", reading({ status: "active" }, { pending: true }), "offline", "starting"],
    ["corrupt", { kind: "corrupt", id: ID, file: "f", error: "x" }, "unknown", "corrupt"],
  ];
  for (const [what, r, liveness, want] of cases) {
    test(`${what} shows as ${want}`, () => expect(displayStatus(r, liveness)).toBe(want as never));
  }

  test("liveness is online only for the recorded pid with its recorded start time", () => {
    const base = { ...emptyRecord(ID), agent_pid: String(me.pid) };
    expect(recordLiveness({ ...base, agent_start: me.start }, false)).toBe("online");
    expect(recordLiveness({ ...base, agent_start: anotherStart(me.start, 1) }, false)).toBe("offline");
    expect(recordLiveness({ ...base, agent_start: me.start, stopped: true }, false)).toBe("offline");
    expect(recordLiveness({ ...base, agent_start: me.start }, true)).toBe("offline"); // pinned while fenced
  });

  test("while the readiness fence is up every reader sees the frozen original", () => {
    const r = reading({ status: "active", note: "candidate", proposal: "merge" }, { pending: true });
    if (r.kind !== "ok") throw new Error("unreachable");
    const view = publicRecord(r.record, r.pending);
    expect([view.status, view.proposal, view.note]).toEqual(["idle", "", "frozen"]);
  });
});
