// The bulk planner and guard, pure: decisions, reasons, argv and the envelope
// shape, without tmux or records.
import { describe, expect, test } from "bun:test";
import type { LiveRow, LiveStatus } from "../../lib/live";
import { type BulkAction, type BulkRequest, planBulk } from "../../lib/live/bulk";
import { contractErrors, isBulkEnvelope } from "../support/contract";

let n = 0;
function row(status: LiveStatus, fields: Partial<LiveRow> = {}): LiveRow {
  n++;
  return {
    target: `s${n}:0.0`, session: `s${n}`, windowIndex: "0", paneIndex: "0", paneId: `%${n}`, command: "claude", cwd: "/p", projectPath: "/p",
    projectSlug: "p", machine: "box", title: "", status, statusReason: "test", paneDead: status === "dead", paneActive: true,
    lastVisibleLine: "> ", isOpenSession: true, socket: "spex", sessionId: `0000000${n}-aaaa-4bbb-8ccc-dddddddddddd`, harness: "claude", statusRule: "governed.lifecycle",
    ...fields,
  };
}

function request(action: BulkAction, over: Partial<BulkRequest> = {}): BulkRequest {
  return {
    action, dryRun: false, yes: false, queue: true, concurrency: 2, jitterMs: 0, openOnly: false, statuses: [], project: null, machine: null,
    limits: { maxActiveAgents: 12, maxLoad1: null, maxLoadPerCore: 1.5 }, ...over,
  };
}

function plan(req: BulkRequest, selected: LiveRow[], candidates = selected, random = () => 0.5) {
  return planBulk({
    request: req, observedAt: new Date().toISOString(), candidates, selected, load: { load1: 0.5, cpuCount: 4 }, executionAvailable: true,
    screenOf: (r) => `screen of ${r.target}`, findingsOf: () => ["finding"], random,
  });
}

describe("mutating actions", () => {
  test("without --yes and without --dry-run every applicable entry is refused as not confirmed, saying what it would do (the --yes advice is given once, by the CLI)", () => {
    const r = row("idle");
    const env = plan(request("stop", { statuses: ["idle"] }), [r, row("idle")]);
    expect(env.entries.map((e) => e.decision)).toEqual(["refused", "refused"]);
    expect(env.entries[0]!.reason).toBe(`not confirmed: would stop session ${r.sessionId!.slice(0, 8)}`);
    expect(env.executionEnabled).toBe(false);
    expect(env.summary.refused).toBe(2);
  });

  test("--dry-run plans each entry with its structured argv and a display preview", () => {
    const r = row("idle");
    const env = plan(request("stop", { dryRun: true, statuses: ["idle"] }), [r]);
    expect(env.entries[0]).toMatchObject({ decision: "planned", argv: ["spex", "session", "stop", r.sessionId!], commandPreview: `spex session stop ${r.sessionId}`, queue: "none" });
    expect(env.dryRun).toBe(true);
    expect(env.executionEnabled).toBe(false);
  });

  test("--yes queues entries into the local queue and enables execution", () => {
    const env = plan(request("restart", { yes: true, statuses: ["idle"] }), [row("idle")]);
    expect(env.entries[0]).toMatchObject({ decision: "queued", queue: "local" });
    expect(env.entries[0]!.argv).toEqual(["spex", "session", "resume", "--force", env.entries[0]!.sessionId!]);
    expect(env.executionEnabled).toBe(true);
    expect(env.summary.queued).toBe(1);
  });

  test("--no-queue keeps entries on the local queue (the contract knows none and local only), one at a time, no delay", () => {
    const env = plan(request("stop", { yes: true, queue: false, jitterMs: 500 }), [row("idle")]);
    expect(env.entries[0]).toMatchObject({ decision: "queued", queue: "local", scheduledDelayMs: 0 });
    expect(env.queue).toBe(false);
  });

  test("filters.statuses is null when --status was not given, the list when it was", () => {
    expect(plan(request("status"), [row("idle")]).filters.statuses).toBeNull();
    expect(plan(request("status", { statuses: ["idle", "dead"] }), [row("idle")]).filters.statuses).toEqual(["idle", "dead"]);
  });

  test("panes spex does not govern are skipped, never acted on", () => {
    const env = plan(request("stop", { yes: true }), [row("idle", { sessionId: null, isOpenSession: false, harness: null })]);
    expect(env.entries[0]).toMatchObject({ decision: "skipped", argv: null, commandPreview: null });
    expect(env.entries[0]!.reason).toContain("does not govern");
  });

  test("active and needs_attention panes are refused unless their status was selected", () => {
    const unselected = plan(request("stop", { yes: true }), [row("active"), row("needs_attention"), row("idle")]);
    expect(unselected.entries.map((e) => e.decision)).toEqual(["refused", "refused", "queued"]);
    expect(unselected.entries[0]!.reason).toContain("--status active");
    const selected = plan(request("stop", { yes: true, statuses: ["active"] }), [row("active")]);
    expect(selected.entries[0]!.decision).toBe("queued");
  });

  test("start skips a running pane and resumes a stopped session", () => {
    const running = row("idle");
    const stopped = row("dead", { paneId: "", paneDead: false, statusRule: "governed.no-pane" });
    const env = plan(request("start", { yes: true }), [running, stopped]);
    expect(env.entries.map((e) => [e.decision, e.reason])).toEqual([
      ["skipped", "already running"],
      ["queued", `queued: resume session ${stopped.sessionId!.slice(0, 8)}`],
    ]);
  });

  test("archived sessions are skipped", () => {
    const env = plan(request("stop", { yes: true }), [row("idle", { isOpenSession: false })]);
    expect(env.entries[0]).toMatchObject({ decision: "skipped", reason: "the session is archived" });
  });

  test("jitter gives each confirmed entry a delay below --jitter", () => {
    const draws = [0, 0.25, 0.999];
    const env = plan(request("stop", { yes: true, jitterMs: 400 }), [row("idle"), row("idle"), row("idle")], undefined, () => draws.shift()!);
    expect(env.entries.map((e) => e.scheduledDelayMs)).toEqual([0, 100, 399]);
  });
});

describe("guard", () => {
  test("more active agents than --max-active-agents refuses mutations and names the limit", () => {
    const candidates = [row("active"), row("active"), row("idle")];
    const env = plan(request("stop", { yes: true, statuses: ["idle"], limits: { maxActiveAgents: 1, maxLoad1: null, maxLoadPerCore: 1.5 } }), [candidates[2]!], candidates);
    expect(env.guard.ok).toBe(false);
    expect(env.guard.hints.activeAgentCount).toBe(2);
    expect(env.guard.reasons[0]).toContain("--max-active-agents");
    expect(env.entries[0]!.decision).toBe("refused");
    expect(env.executionEnabled).toBe(false);
  });

  test("read-only actions still plan every entry under guard pressure and carry the warning", () => {
    const candidates = [row("active"), row("active")];
    const env = plan(request("status", { limits: { maxActiveAgents: 1, maxLoad1: null, maxLoadPerCore: 1.5 } }), candidates);
    expect(env.entries.map((e) => e.decision)).toEqual(["planned", "planned"]);
    expect(env.guard.ok).toBe(false);
    expect(env.guard.reasons).toHaveLength(1);
  });

  test("load limits compare the load average and the load per core", () => {
    const env = planBulk({
      request: request("stop", { yes: true, limits: { maxActiveAgents: 12, maxLoad1: 3, maxLoadPerCore: 1 } }), observedAt: new Date().toISOString(),
      candidates: [row("idle")], selected: [row("idle")], load: { load1: 8, cpuCount: 4 }, executionAvailable: true, screenOf: () => "", findingsOf: () => [], random: Math.random,
    });
    expect(env.guard.hints).toMatchObject({ load1: 8, cpuCount: 4, loadPerCore: 2 });
    expect(env.guard.reasons).toHaveLength(2);
  });

  test("a pane running a known agent counts as an active agent; a busy non-agent program does not", () => {
    const agent = row("active", { sessionId: null, harness: "codex" });
    const program = row("active", { sessionId: null, harness: null, command: "make" });
    expect(plan(request("status"), [agent, program]).guard.hints.activeAgentCount).toBe(1);
  });

  test("a selection spanning two machines is refused for mutation", () => {
    const env = plan(request("stop", { yes: true }), [row("idle", { machine: "a" }), row("idle", { machine: "b" })]);
    expect(env.guard.hints.selectedMachineCount).toBe(2);
    expect(env.entries.every((e) => e.decision === "refused")).toBe(true);
  });
});

describe("read-only actions", () => {
  test("status plans every entry as a read-only check with no argv", () => {
    const env = plan(request("status"), [row("idle"), row("dead")]);
    expect(env.entries.map((e) => [e.decision, e.reason, e.argv, e.queue])).toEqual([
      ["planned", "read-only bulk check", null, "none"],
      ["planned", "read-only bulk check", null, "none"],
    ]);
    expect(env.dryRun).toBe(true);
  });

  test("capture carries each screen and doctor each finding", () => {
    expect(plan(request("capture"), [row("idle")]).entries[0]!.capture).toMatch(/^screen of /);
    expect(plan(request("doctor"), [row("idle")]).entries[0]!.findings).toEqual(["finding"]);
  });
});

test("every envelope the planner builds conforms to the sessions.bulk.v1 contract", () => {
  const rows = [row("idle"), row("active"), row("needs_attention"), row("dead"), row("idle", { sessionId: null })];
  for (const action of ["status", "capture", "doctor", "ensure", "start", "stop", "restart"] as const) {
    for (const over of [{}, { dryRun: true }, { yes: true }, { yes: true, limits: { maxActiveAgents: 0, maxLoad1: null, maxLoadPerCore: 1.5 } }]) {
      const env = JSON.parse(JSON.stringify(plan(request(action, over), rows)));
      expect(contractErrors(isBulkEnvelope, env)).toEqual([]);
    }
  }
});

test("the contract validator rejects an envelope missing a required field", () => {
  const env = JSON.parse(JSON.stringify(plan(request("status"), [row("idle")])));
  delete env.entries[0].decision;
  delete env.guard.hints.captureScope;
  expect(contractErrors(isBulkEnvelope, env).length).toBeGreaterThan(0);
});
