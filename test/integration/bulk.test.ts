// `spex session bulk` against real tmux and real records: confirmation,
// dry-run plans, real stops of exactly the selected sessions, the guard, and
// the sessions.bulk.v1 envelope.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { processIdentity } from "../../lib/proc";
import { readSession } from "../../lib/record";
import { projectStore } from "../../lib/store";
import { type Sandbox, sandbox } from "../support/sandbox";
import { seedRecord } from "../support/records";
import { contractErrors, isBulkEnvelope } from "../support/contract";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

/** Only the sandbox's server is scanned; stops are quick; the machine's load never decides a test. */
function env(s: Sandbox): Record<string, string> {
  return { SPEX_TMUX_SERVERS: s.tmuxSocket, SPEX_STOP_GRACE_MS: "300" };
}

/** A spex session with a live pane: a record naming the tmux session and the agent leaf in it. */
function governed(s: Sandbox, name: string, status: "idle" | "active" | "asking") {
  const worktree = join(s.repo, ".worktrees", name);
  mkdirSync(worktree, { recursive: true });
  const r = s.tmux(["new-session", "-d", "-s", name, "-c", worktree, "-P", "-F", "#{pane_pid}", "sleep 100000"]);
  const pid = Number(r.stdout.trim());
  const start = processIdentity(pid)!.start;
  return seedRecord(s.home, s.repo, { worktree_path: worktree, tmux_socket: s.tmuxSocket, tmux_session: name, status, agent_pid: String(pid), agent_start: start });
}

function alive(s: Sandbox, name: string): boolean {
  return s.tmux(["has-session", "-t", `=${name}`]).status === 0;
}

function stopped(s: Sandbox, id: string): boolean {
  const reading = readSession(projectStore(s.repo, s.home), id);
  if (reading.kind !== "ok") throw new Error(`record ${id} is ${reading.kind}`);
  return reading.record.stopped;
}

function bulk(s: Sandbox, args: string[]) {
  const r = s.spex(["session", "bulk", ...args, "--max-load-per-core", "1000", "--json"], { env: env(s) });
  const envelope = JSON.parse(r.stdout);
  expect(contractErrors(isBulkEnvelope, envelope)).toEqual([]);
  return { code: r.code, envelope, stderr: r.stderr };
}

function fleet(s: Sandbox) {
  const idle1 = governed(s, "idle-one", "idle");
  const idle2 = governed(s, "idle-two", "idle");
  const busy = governed(s, "busy", "active");
  // A shell nobody governs: idle, so --status idle selects it, and it must be skipped.
  s.tmux(["new-session", "-d", "-s", "foreign", "sh"]);
  return { idle1, idle2, busy };
}

test("bulk stop --status idle without --yes or --dry-run refuses with a reason and changes nothing", () => {
  sb = sandbox();
  const f = fleet(sb);
  const { code, envelope } = bulk(sb, ["stop", "--status", "idle"]);
  expect(code).toBe(1);
  const mine = envelope.entries.filter((e: any) => e.sessionId);
  expect(mine.map((e: any) => e.decision)).toEqual(["refused", "refused"]);
  expect(mine[0].reason).toBe(`not confirmed: would stop session ${mine[0].sessionId.slice(0, 8)}`);
  expect(envelope.executionEnabled).toBe(false);
  for (const name of ["idle-one", "idle-two", "busy", "foreign"]) expect(alive(sb, name)).toBe(true);
  expect(stopped(sb, f.idle1.session_id)).toBe(false);
  const human = sb.spex(["session", "bulk", "stop", "--status", "idle", "--max-load-per-core", "1000"], { env: env(sb) });
  expect(human.code).toBe(1);
  // Said once, not on every row (issue 28 item 9).
  expect((human.stdout + human.stderr).split("confirm with --yes").length - 1).toBe(1);
  expect(human.stdout.split("not confirmed: would stop session").length - 1).toBe(2);
});

test("bulk stop --status idle --dry-run plans the idle spex sessions and changes nothing", () => {
  sb = sandbox();
  const f = fleet(sb);
  const { code, envelope } = bulk(sb, ["stop", "--status", "idle", "--dry-run"]);
  expect(code).toBe(0);
  const planned = envelope.entries.filter((e: any) => e.decision === "planned");
  expect(planned.map((e: any) => e.sessionId).sort()).toEqual([f.idle1.session_id, f.idle2.session_id].sort());
  expect(planned[0].argv).toEqual(["spex", "session", "stop", planned[0].sessionId]);
  expect(envelope.entries.find((e: any) => e.target.startsWith("foreign:")).decision).toBe("skipped");
  expect(envelope.entries.some((e: any) => e.target.startsWith("busy:"))).toBe(false);
  expect(envelope).toMatchObject({ dryRun: true, executionEnabled: false });
  for (const name of ["idle-one", "idle-two", "busy", "foreign"]) expect(alive(sb, name)).toBe(true);
});

test("bulk stop --status idle --yes stops exactly the idle spex sessions and leaves the active one and foreign panes alone", () => {
  sb = sandbox();
  const f = fleet(sb);
  const { code, envelope } = bulk(sb, ["stop", "--status", "idle", "--yes", "--concurrency", "2"]);
  expect(code).toBe(0);
  expect(envelope.executionEnabled).toBe(true);
  const queued = envelope.entries.filter((e: any) => e.decision === "queued");
  expect(queued.map((e: any) => e.sessionId).sort()).toEqual([f.idle1.session_id, f.idle2.session_id].sort());
  for (const e of queued) expect(e.outcome).toMatchObject({ ok: true, state: "done" });
  expect(envelope.summary).toMatchObject({ queued: 2, succeeded: 2, failed: 0, skipped: 1 });
  expect(alive(sb, "idle-one")).toBe(false);
  expect(alive(sb, "idle-two")).toBe(false);
  expect(stopped(sb, f.idle1.session_id)).toBe(true);
  expect(stopped(sb, f.idle2.session_id)).toBe(true);
  expect(alive(sb, "busy")).toBe(true);
  expect(stopped(sb, f.busy.session_id)).toBe(false);
  expect(alive(sb, "foreign")).toBe(true);
});

test("an active pane is refused unless active was selected with --status", () => {
  sb = sandbox();
  governed(sb, "busy", "active");
  const { code, envelope } = bulk(sb, ["stop", "--yes"]);
  expect(code).toBe(1);
  expect(envelope.entries[0]).toMatchObject({ decision: "refused", status: "active" });
  expect(envelope.entries[0].reason).toContain("--status active");
  expect(alive(sb, "busy")).toBe(true);
});

test("--max-active-agents 1 with two active agents refuses mutations and still answers bulk status", () => {
  sb = sandbox();
  const idle = governed(sb, "idle-one", "idle");
  governed(sb, "busy-one", "active");
  governed(sb, "busy-two", "active");
  const stop = bulk(sb, ["stop", "--status", "idle", "--yes", "--max-active-agents", "1"]);
  expect(stop.code).toBe(1);
  expect(stop.envelope.guard.ok).toBe(false);
  expect(stop.envelope.guard.hints).toMatchObject({ activeAgentCount: 2, maxActiveAgents: 1, captureScope: "prefiltered" });
  expect(stop.envelope.entries.map((e: any) => e.decision)).toEqual(["refused"]);
  expect(stop.envelope.entries[0].reason).toContain("--max-active-agents");
  expect(alive(sb, "idle-one")).toBe(true);
  expect(stopped(sb, idle.session_id)).toBe(false);

  const status = bulk(sb, ["status", "--max-active-agents", "1"]);
  expect(status.code).toBe(0);
  expect(status.envelope.guard.ok).toBe(false);
  expect(status.envelope.guard.reasons[0]).toContain("2 active agents");
  expect(status.envelope.entries.map((e: any) => e.decision)).toEqual(["planned", "planned", "planned"]);
  expect(status.envelope.summary).toMatchObject({ totalPanes: 3, selected: 3, planned: 3 });
});

test("read-only actions answer the contract envelope with screens and findings", () => {
  sb = sandbox();
  governed(sb, "asker", "asking");
  const status = bulk(sb, ["status", "--open-only"]);
  expect(status.envelope).toMatchObject({ action: "status", dryRun: true, yes: false, executionEnabled: false, filters: { openOnly: true, statuses: null, project: null, machine: null } });
  expect(status.envelope.entries[0]).toMatchObject({ status: "needs_attention", decision: "planned", reason: "read-only bulk check", argv: null, commandPreview: null, queue: "none" });
  const capture = bulk(sb, ["capture", "--status", "needs_attention"]);
  expect(typeof capture.envelope.entries[0].capture).toBe("string");
  const doctor = bulk(sb, ["doctor"]);
  expect(doctor.envelope.entries[0].findings.join(" ")).toContain("waiting for a person");
});

test("bulk ensure --yes brings a stopped spex session back through resume", () => {
  sb = sandbox();
  const created = JSON.parse(sb.spex(["session", "new", "--launcher", "shell", "--json", "ensure me"], { env: env(sb) }).stdout);
  expect(sb.spex(["session", "stop", created.session_id], { env: env(sb) }).code).toBe(0);
  expect(alive(sb, created.tmux_session)).toBe(false);
  const plan = bulk(sb, ["ensure", "--dry-run"]);
  expect(plan.envelope.entries[0]).toMatchObject({ sessionId: created.session_id, status: "dead", decision: "planned", argv: ["spex", "session", "resume", created.session_id] });
  const run = bulk(sb, ["ensure", "--yes"]);
  expect(run.code).toBe(0);
  expect(run.envelope.entries[0].outcome).toMatchObject({ ok: true, state: "done" });
  expect(alive(sb, created.tmux_session)).toBe(true);
  const again = bulk(sb, ["ensure", "--yes"]);
  expect(again.envelope.entries[0]).toMatchObject({ decision: "skipped", reason: "already running" });
});
