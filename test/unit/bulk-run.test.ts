// The queue runner: bounded concurrency, jitter delays, one outcome per entry,
// failures isolated, --no-queue one at a time; and the executor's re-check.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GovernedSession, LiveRow } from "../../lib/live";
import { type BulkEnvelope, type BulkExecutor, type SessionOps, planBulk, runQueued, sessionExecutor } from "../../lib/live/bulk";
import { SpexError } from "../../lib/errors";
import { projectStore } from "../../lib/store";
import { seedRecord } from "../support/records";

function envelope(count: number, over: { queue?: boolean; concurrency?: number; jitterMs?: number } = {}): BulkEnvelope {
  const rows: LiveRow[] = Array.from({ length: count }, (_, i) => ({
    target: `s${i}:0.0`, session: `s${i}`, windowIndex: "0", paneIndex: "0", paneId: `%${i}`, command: "sh", cwd: "/p", projectPath: "/p", projectSlug: "p",
    machine: "box", title: "", status: "idle", statusReason: "", paneDead: false, paneActive: true, lastVisibleLine: null, isOpenSession: true, socket: "spex",
    sessionId: `id-${i}`, harness: "shell", statusRule: "governed.lifecycle",
  }));
  let draw = 0;
  return planBulk({
    request: { action: "stop", dryRun: false, yes: true, queue: over.queue ?? true, concurrency: over.concurrency ?? 2, jitterMs: over.jitterMs ?? 0, openOnly: false, statuses: [], project: null, machine: null, limits: { maxActiveAgents: 12, maxLoad1: null, maxLoadPerCore: 1.5 } },
    observedAt: new Date().toISOString(), candidates: rows, selected: rows, load: { load1: 0, cpuCount: 1 }, executionAvailable: true,
    screenOf: () => "", findingsOf: () => [], random: () => (draw++ % 4) / 4,
  });
}

function tracking(fail: (id: string) => boolean = () => false) {
  let inFlight = 0;
  const seen = { max: 0, order: [] as string[] };
  const release: (() => void)[] = [];
  const executor: BulkExecutor = async (_action, entry) => {
    inFlight++;
    seen.max = Math.max(seen.max, inFlight);
    seen.order.push(entry.sessionId!);
    await new Promise<void>((r) => release.push(r));
    inFlight--;
    if (fail(entry.sessionId!)) throw new SpexError("leaf_unprovable", `cannot stop ${entry.sessionId}`);
    return { ok: true, message: "stopped" };
  };
  // Let every waiting operation finish whenever the queue is blocked on them.
  const pump = setInterval(() => release.splice(0).forEach((r) => r()), 1);
  return { executor, seen, stop: () => clearInterval(pump) };
}

test("no more than --concurrency operations run at once, and every entry records its outcome", async () => {
  const env = envelope(7, { concurrency: 3 });
  const t = tracking();
  await runQueued(env, t.executor, { sleep: async () => {} });
  t.stop();
  expect(t.seen.max).toBeLessThanOrEqual(3);
  expect(t.seen.max).toBeGreaterThan(1);
  expect(env.entries.every((e) => e.outcome?.state === "done")).toBe(true);
  expect(env.summary).toMatchObject({ succeeded: 7, failed: 0 });
});

test("one failing operation is reported on its entry and does not stop the others", async () => {
  const env = envelope(4);
  const t = tracking((id) => id === "id-1");
  await runQueued(env, t.executor, { sleep: async () => {} });
  t.stop();
  expect(env.entries.map((e) => e.outcome?.state)).toEqual(["done", "failed", "done", "done"]);
  expect(env.entries[1]!.outcome).toMatchObject({ ok: false, code: "leaf_unprovable" });
  expect(env.summary).toMatchObject({ succeeded: 3, failed: 1 });
});

test("each queued operation waits its jitter delay first", async () => {
  const env = envelope(4, { jitterMs: 400, concurrency: 1 });
  const slept: number[] = [];
  const t = tracking();
  await runQueued(env, t.executor, { sleep: async (ms) => void slept.push(ms) });
  t.stop();
  expect(slept).toEqual(env.entries.map((e) => e.scheduledDelayMs).filter((d) => d > 0));
  expect(slept.length).toBeGreaterThan(0);
});

test("--no-queue runs one operation at a time, in order, without delays", async () => {
  const env = envelope(5, { queue: false, concurrency: 4, jitterMs: 1000 });
  const t = tracking();
  let slept = 0;
  await runQueued(env, t.executor, { sleep: async () => void slept++ });
  t.stop();
  expect(t.seen.max).toBe(1);
  expect(t.seen.order).toEqual(["id-0", "id-1", "id-2", "id-3", "id-4"]);
  expect(slept).toBe(0);
});

test("nothing runs when the plan does not enable execution", async () => {
  const env = envelope(2);
  env.executionEnabled = false;
  let calls = 0;
  await runQueued(env, async () => (calls++, { ok: true, message: "" }));
  expect(calls).toBe(0);
  expect(env.entries.every((e) => e.outcome === undefined)).toBe(true);
});

describe("the session executor", () => {
  const made: string[] = [];
  afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

  function session(status: "idle" | "active") {
    const dir = mkdtempSync(join(tmpdir(), "spex-bulk-exec-"));
    made.push(dir);
    const record = seedRecord(join(dir, "home"), join(dir, "repo"), { status });
    const s: GovernedSession = { store: projectStore(join(dir, "repo"), join(dir, "home")), id: record.session_id, record, retired: false };
    return s;
  }

  function fakeOps() {
    const calls: string[] = [];
    const ops: SessionOps = {
      stop: async (s) => (calls.push(`stop ${s.id}`), "stopped"),
      resume: async (s, force) => (calls.push(`resume${force ? " --force" : ""} ${s.id}`), "resumed"),
    };
    return { ops, calls };
  }

  const entry = (id: string) => envelope(1).entries.map((e) => ({ ...e, sessionId: id }))[0]!;

  test("a session that turned active since the plan is left alone when active was not selected", async () => {
    const s = session("active");
    const { ops, calls } = fakeOps();
    const result = await sessionExecutor((id) => (id === s.id ? s : undefined), ["idle"], ops)("stop", entry(s.id));
    expect(result).toMatchObject({ ok: false, state: "skipped", code: "status_changed" });
    expect(calls).toEqual([]);
  });

  test("stop, restart and ensure go through stop, resume --force and resume", async () => {
    const s = session("idle");
    const { ops, calls } = fakeOps();
    const run = sessionExecutor((id) => (id === s.id ? s : undefined), ["idle"], ops);
    for (const action of ["stop", "restart", "ensure", "start"] as const) expect((await run(action, entry(s.id))).ok).toBe(true);
    expect(calls).toEqual([`stop ${s.id}`, `resume --force ${s.id}`, `resume ${s.id}`, `resume ${s.id}`]);
  });
});
