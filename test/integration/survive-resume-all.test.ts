// `spex session resume --all` after a simulated restart (issue 27 item 3): the
// tmux server and every agent killed, the boot id changed through the test
// seam. Within sessions.maxActive 12, 50 sessions: 12 launch at once, 38
// wait in the launch queue, and every one runs once slots free, each
// relaunched exactly once; an agent with a conversation goes back into it.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { storedRecord } from "../support/records";
import { http, serve, spexAsync } from "./backend-support";
import { installFakeAgents } from "../support/agents";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

const RESTARTED = { SPEX_TEST_BOOT_ID: "boot-after-the-restart" };

/** A launcher that logs each start of a session (its id), then stays up as the agent. */
function countingFleet(s: Sandbox, maxActive: number): string {
  const log = join(s.dir, "launches.log");
  const command = `sh -c 'printf "%s\\n" "$SPEX_SESSION_ID" >> ${log}; exec sleep 600' counted`;
  writeFileSync(join(s.repo, "spexcode.local.json"), JSON.stringify({ sessions: { maxActive }, launchers: { counted: { harness: "shell", command } } }));
  return log;
}

function setMaxActive(s: Sandbox, maxActive: number): void {
  const file = join(s.repo, "spexcode.local.json");
  const config = JSON.parse(readFileSync(file, "utf8"));
  writeFileSync(file, JSON.stringify({ ...config, sessions: { maxActive } }));
}

function launches(log: string): string[] {
  return existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
}

/** Each session's launches after the first (its relaunches). */
const relaunches = (log: string) => {
  const counts = new Map<string, number>();
  for (const id of launches(log)) counts.set(id, (counts.get(id) ?? 0) + 1);
  for (const [id, n] of counts) if (n <= 1) counts.delete(id);
  else counts.set(id, n - 1);
  return counts;
};

interface Row {
  id: string;
  display: string;
  liveness: string;
  offlineReason: string | null;
  queuePosition: number | null;
}

function rows(s: Sandbox): Row[] {
  const r = s.spex(["session", "ls", "--json"], { env: RESTARTED });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

function recordFile(s: Sandbox, id: string): string {
  const [key] = readdirSync(join(s.home, "projects"));
  return join(s.home, "projects", key!, "sessions", id, "session.json");
}

const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};

/** The machine goes down: every agent and the tmux server killed (no hook runs), then it comes back with another boot id. */
async function restart(s: Sandbox, ids: string[]): Promise<void> {
  const pids = ids.map((id) => Number(storedRecord(s.home, id).agent_pid));
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch (e) {
      // An agent already gone (a loaded machine outlasting its sleep) is down as well.
      if ((e as NodeJS.ErrnoException).code !== "ESRCH") throw e;
    }
  }
  s.tmux(["kill-server"]);
  await waitFor(() => pids.every((p) => !alive(p)), "every agent gone", 30000);
}

describe("resume --all", () => {
  test("50 sessions after a restart, maxActive 12: 12 launch and 38 queue; all 50 run once slots free, each resumed exactly once", async () => {
    sb = sandbox();
    const log = countingFleet(sb, 50);
    const env = { SPEX_LOCK_TIMEOUT_MS: "120000" };
    const ids: string[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const made = await Promise.all(Array.from({ length: 5 }, (_, i) => spexAsync(sb, ["session", "new", "--launcher", "counted", "--json", `task ${batch * 5 + i}`], { env })));
      for (const r of made) {
        expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
        ids.push(JSON.parse(r.stdout).session_id);
      }
    }
    await waitFor(() => launches(log).length === 50, "fifty first launches", 60000);

    await restart(sb, ids);
    setMaxActive(sb, 12);
    const down = rows(sb);
    expect(down).toHaveLength(50);
    expect(down.every((r) => r.liveness === "offline" && r.offlineReason === "machine_restarted")).toBe(true);

    // The plan first: nothing changes.
    const plan = sb.spex(["session", "resume", "--all", "--dry-run", "--json"], { env: RESTARTED });
    expect(plan.stderr).toBe("");
    const planned = JSON.parse(plan.stdout);
    expect(planned.summary).toMatchObject({ selected: 50, launched: 0, queued: 0, failed: 0, planned: { launch: 12, queue: 38 } });
    expect(launches(log)).toHaveLength(50);
    expect(rows(sb).every((r) => r.offlineReason === "machine_restarted")).toBe(true);

    // Two runs at once (a login service and a person, say): between them each session is taken once.
    const runs = await Promise.all([0, 1].map(() => spexAsync(sb, ["session", "resume", "--all", "--json"], { env: { ...env, ...RESTARTED } })));
    for (const run of runs) expect({ code: run.code, stderr: run.stderr, out: run.code === 0 ? "" : run.stdout.slice(0, 3000) }).toEqual({ code: 0, stderr: "", out: "" });
    const results = runs.map((run) => JSON.parse(run.stdout));
    const sum = (k: string) => results.reduce((n, r) => n + r.summary[k], 0);
    expect({ launched: sum("launched"), queued: sum("queued"), failed: sum("failed") }).toEqual({ launched: 12, queued: 38, failed: 0 });
    // Whatever one run took, the other found taken (skipped) or never listed.
    const taken = results.flatMap((r) => r.entries.filter((e: any) => e.outcome === "launched" || e.outcome === "queued").map((e: any) => e.id));
    expect(new Set(taken).size).toBe(50);
    expect(taken).toHaveLength(50);
    const result = { entries: results.flatMap((r) => r.entries.filter((e: any) => e.outcome !== "skipped")) };
    result.entries.sort((a: any, b: any) => (a.outcome === b.outcome ? (a.queuePosition ?? 0) - (b.queuePosition ?? 0) : a.outcome === "launched" ? -1 : 1));
    const launchedNow = result.entries.filter((e: any) => e.outcome === "launched");
    expect(launchedNow.every((e: any) => e.ready === true && e.reason === "machine_restarted")).toBe(true);
    // The oldest twelve launch; the rest wait in order.
    const byAge = [...ids].sort((a, b) => {
      const [ta, tb] = [storedRecord(sb.home, a).createdAt, storedRecord(sb.home, b).createdAt];
      return ta === tb ? a.localeCompare(b) : ta < tb ? -1 : 1;
    });
    expect(launchedNow.map((e: any) => e.id).sort()).toEqual(byAge.slice(0, 12).sort());
    expect(result.entries.filter((e: any) => e.outcome === "queued").map((e: any) => e.queuePosition)).toEqual(Array.from({ length: 38 }, (_, i) => i + 1));
    // Ready is each agent's pid; its launcher's log line may land a moment later.
    await waitFor(() => relaunches(log).size >= 12, "twelve relaunches logged", 30000);
    expect([...relaunches(log).keys()].sort()).toEqual(byAge.slice(0, 12).sort());

    const after = rows(sb);
    expect(after.filter((r) => r.liveness === "online")).toHaveLength(12);
    expect(after.filter((r) => r.display === "queued")).toHaveLength(38);

    // A second run finds nothing left to do: the queued ones wait for a slot, the running ones run.
    const again = JSON.parse(sb.spex(["session", "resume", "--all", "--json"], { env: RESTARTED }).stdout);
    expect(again.summary.selected).toBe(0);

    // Slots free (the limit is raised): listings drain the queue, three at once, each session launched once.
    setMaxActive(sb, 30);
    expect(rows(sb).filter((r) => r.display === "queued")).toHaveLength(20);
    setMaxActive(sb, 50);
    const drains = await Promise.all([0, 1, 2].map(() => spexAsync(sb, ["session", "ls", "--json"], { env: { ...env, ...RESTARTED } })));
    for (const r of drains) expect(r.code).toBe(0);
    await waitFor(() => relaunches(log).size === 50, "fifty relaunches", 60000);
    const final = rows(sb);
    expect(final.filter((r) => r.liveness === "online")).toHaveLength(50);
    expect(final.every((r) => r.offlineReason === null)).toBe(true);
    // Each session: its first launch and one relaunch, nothing more.
    expect([...relaunches(log).values()].every((n) => n === 1)).toBe(true);
    expect(launches(log)).toHaveLength(100);
  }, 900000);

  test("killed and archived sessions stay down unless asked; the filters narrow what comes back; a refusal changes nothing and exits 1", async () => {
    sb = sandbox();
    const log = countingFleet(sb, 12);
    const made = ["alpha", "beta", "gamma", "delta"].map((p) => JSON.parse(sb.spex(["session", "new", "--launcher", "counted", "--json", p]).stdout).session_id as string);
    const [alpha, beta, gamma, delta] = made as [string, string, string, string];
    expect(sb.spex(["group", "new", "fleet"]).code).toBe(0);
    expect(sb.spex(["group", "new", "fleet/api"]).code).toBe(0);
    expect(sb.spex(["group", "file", "fleet/api", beta]).code).toBe(0);
    expect(sb.spex(["session", "stop", gamma]).code).toBe(0);
    expect(sb.spex(["session", "archive", delta]).code).toBe(0);
    await restart(sb, [alpha, beta, delta]);

    // The filters of a plan: another project's text finds nothing, this one's finds both; a status narrows.
    const planIds = (...args: string[]) => JSON.parse(sb.spex(["session", "resume", "--all", "--dry-run", "--json", ...args], { env: RESTARTED }).stdout).entries.map((e: any) => e.id).sort();
    expect(planIds("--project", "no-such-project")).toEqual([]);
    expect(planIds("--project", basename(sb.repo))).toEqual([alpha, beta].sort());
    const lifecycle = JSON.parse(sb.spex(["session", "ls", "--json"], { env: RESTARTED }).stdout).find((r: any) => r.id === alpha).lifecycle;
    expect(planIds("--status", lifecycle)).toEqual([alpha, beta].sort());
    expect(planIds("--status", lifecycle === "asking" ? "review" : "asking")).toEqual([]);
    expect(launches(log)).toHaveLength(4);

    // Only the group's: beta.
    const grouped = JSON.parse(sb.spex(["session", "resume", "--all", "--group", "fleet", "--json"], { env: RESTARTED }).stdout);
    expect(grouped.entries.map((e: any) => [e.id, e.outcome])).toEqual([[beta, "launched"]]);
    // The rest by default: alpha; gamma was stopped by spex (killed), delta is archived.
    const rest = sb.spex(["session", "resume", "--all", "--json"], { env: RESTARTED });
    expect(JSON.parse(rest.stdout).entries.map((e: any) => e.id)).toEqual([alpha]);
    const reasons = Object.fromEntries(rows(sb).map((r) => [r.id, r.offlineReason]));
    expect(reasons[gamma]).toBe("killed");
    // Asked for: the killed one comes back too.
    const killed = JSON.parse(sb.spex(["session", "resume", "--all", "--reason", "killed", "--json"], { env: RESTARTED }).stdout);
    expect(killed.entries.map((e: any) => [e.id, e.outcome])).toEqual([[gamma, "launched"]]);
    await waitFor(() => relaunches(log).size >= 3, "three relaunches logged", 30000);
    expect([...relaunches(log).keys()].sort()).toEqual([alpha, beta, gamma].sort());

    // Usage: --all takes no selector; unknown reasons and statuses are refused before anything happens.
    expect(sb.spex(["session", "resume", "--all", alpha]).code).toBe(2);
    expect(sb.spex(["session", "resume", "--all", "--reason", "bored"]).code).toBe(2);
    expect(sb.spex(["session", "resume", "--all", "--status", "sleepy"]).code).toBe(2);
    expect(sb.spex(["session", "resume", "--dry-run", alpha]).code).toBe(2);

    // A session whose branch is gone is refused; nothing of it changes, the run exits 1.
    const [lost] = [alpha];
    const lostBranch = storedRecord(sb.home, lost).branch;
    await restart(sb, [alpha, beta, gamma]);
    sb.git(["update-ref", "-d", `refs/heads/${lostBranch}`]);
    const lostBefore = readFileSync(recordFile(sb, lost), "utf8");
    const refused = sb.spex(["session", "resume", "--all", "--json"], { env: RESTARTED });
    expect(refused.code).toBe(1);
    const entries = JSON.parse(refused.stdout).entries;
    expect(entries.find((e: any) => e.id === lost)).toMatchObject({ outcome: "failed", error: { code: "branch_missing" } });
    expect(entries.filter((e: any) => e.outcome === "launched").map((e: any) => e.id).sort()).toEqual([beta, gamma].sort());
    expect(readFileSync(recordFile(sb, lost), "utf8")).toBe(lostBefore);
    const quiet = sb.spex(["session", "resume", "--all", "--quiet"], { env: RESTARTED });
    expect(quiet.stdout).toBe("");
    expect(quiet.stderr).toContain("branch_missing");
  }, 300000);

  test("the dashboard's action: POST /api/sessions/resume-all plans, then brings back the dead, leaving the stopped; bad fields are refused", async () => {
    sb = sandbox();
    const log = countingFleet(sb, 12);
    const [alive1, stopped] = ["one", "two"].map((p) => JSON.parse(sb.spex(["session", "new", "--launcher", "counted", "--json", p]).stdout).session_id as string) as [string, string];
    expect(sb.spex(["session", "stop", stopped]).code).toBe(0);
    await restart(sb, [alive1]);
    const served = await serve(sb, { env: RESTARTED });
    try {
      const post = (body: unknown) => http(served.url, "/api/sessions/resume-all", { body, token: served.token });
      const plan = await post({ dryRun: true });
      expect(plan.status).toBe(200);
      expect(plan.json.entries.map((e: any) => [e.id, e.reason, e.decision])).toEqual([[alive1, "machine_restarted", "launch"]]);
      expect(launches(log)).toHaveLength(2);
      expect((await post({ reason: ["bored"] })).json.error.code).toBe("field_invalid");
      expect((await post({ force: true })).status).toBe(400);
      expect((await http(served.url, "/api/sessions/resume-all", { body: {} })).status).toBe(401);
      const done = await post({});
      expect(done.status).toBe(200);
      expect(done.json.summary).toMatchObject({ selected: 1, launched: 1, queued: 0, failed: 0 });
      // Ready is the agent's pid; its launcher's log line may land a moment later.
      await waitFor(() => relaunches(log).size > 0, "the relaunch logged", 30000);
      expect([...relaunches(log).keys()]).toEqual([alive1]);
    } finally {
      await served.stop();
    }
  }, 120000);

  test("a resume --all killed right after it claimed the slots: the next run relaunches every session once, none forgotten", async () => {
    sb = sandbox();
    const log = countingFleet(sb, 12);
    const ids = ["one", "two", "three"].map((p) => JSON.parse(sb.spex(["session", "new", "--launcher", "counted", "--json", p]).stdout).session_id as string);
    await waitFor(() => launches(log).length === 3, "three first launches", 30000);
    await restart(sb, ids);

    // Killed once its drain claimed the three slots, before it launched any: each agent.pid still names the agent of before the restart.
    const killed = sb.spex(["session", "resume", "--all"], { env: { ...RESTARTED, SPEX_TEST_CRASH_AT: "queue-claimed" } });
    expect(killed.code).not.toBe(0);
    expect(relaunches(log).size).toBe(0);

    // Run again, as the person would: the claims the dead run left go back to the queue and every session comes back once.
    const again = sb.spex(["session", "resume", "--all", "--json"], { env: RESTARTED });
    expect(again.stderr).toBe("");
    await waitFor(() => relaunches(log).size === 3 || undefined, "three relaunches", 30000);
    await waitFor(() => rows(sb).every((r) => r.liveness === "online") || undefined, "all three back", 30000);
    rows(sb);
    expect(sb.spex(["session", "resume", "--all", "--json"], { env: RESTARTED }).code).toBe(0);
    expect([...relaunches(log).values()]).toEqual([1, 1, 1]);
  }, 120000);

  test("a resume --all killed after it cleared the dead panes, before it queued them: each session keeps its reason and the next run brings it back", async () => {
    sb = sandbox();
    // This machine has not restarted: the reasons are read with its own boot.
    const here = () => JSON.parse(sb.spex(["session", "ls", "--json"]).stdout) as Row[];
    const log = countingFleet(sb, 12);
    const ids = ["one", "two", "three"].map((p) => JSON.parse(sb.spex(["session", "new", "--launcher", "counted", "--json", p]).stdout).session_id as string);
    await waitFor(() => launches(log).length === 3, "three first launches", 30000);
    // Each agent exits on its own; tmux keeps its dead pane (remain-on-exit), which resume --all clears first.
    const pids = ids.map((id) => Number(storedRecord(sb.home, id).agent_pid));
    for (const pid of pids) process.kill(pid, "SIGKILL");
    await waitFor(() => pids.every((p) => !alive(p)), "every agent gone", 30000);
    await waitFor(() => here().every((r) => r.offlineReason === "agent_exited") || undefined, "three agents exited", 30000).catch((e) => { throw new Error(e.message + JSON.stringify(here()) + sb.tmux(["list-panes", "-a", "-F", "#{session_name} #{pane_dead} #{pane_pid}"]).stdout); });

    const killed = sb.spex(["session", "resume", "--all"], { env: { SPEX_TEST_CRASH_AT: "resume-leftovers-cleared" } });
    expect(killed.code).not.toBe(0);
    expect(relaunches(log).size).toBe(0);
    // The dead panes are gone, the reasons are not: nothing says a person stopped these sessions.
    expect(here().map((r) => r.offlineReason)).toEqual(["agent_exited", "agent_exited", "agent_exited"]);

    const again = JSON.parse(sb.spex(["session", "resume", "--all", "--json"]).stdout);
    expect(again.summary).toMatchObject({ selected: 3, launched: 3, failed: 0 });
    await waitFor(() => relaunches(log).size === 3 || undefined, "three relaunches", 30000);
    expect([...relaunches(log).values()]).toEqual([1, 1, 1]);
  }, 120000);

  test("a session waiting in the queue goes back into its own conversation when its slot comes (claude --resume <its id>), never afresh", async () => {
    sb = sandbox();
    const agents = installFakeAgents(sb);
    writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ sessions: { maxActive: 3 } }));
    const ids = ["first ask", "second ask", "third ask"].map((p) => JSON.parse(sb.spex(["session", "new", "--launcher", "claude", "--json", p]).stdout).session_id as string);
    const native = Object.fromEntries(ids.map((id) => [id, storedRecord(sb.home, id).harness_session_id as string]));
    await waitFor(() => rows(sb).every((r) => r.display === "idle"), "three idle agents", 60000);
    await restart(sb, ids);
    setMaxActive(sb, 1);

    const run = JSON.parse(sb.spex(["session", "resume", "--all", "--json"], { env: RESTARTED }).stdout);
    expect(run.entries.map((e: any) => [e.id, e.outcome])).toEqual([[ids[0], "launched"], [ids[1], "queued"], [ids[2], "queued"]]);
    setMaxActive(sb, 3);
    expect(sb.spex(["session", "ls"], { env: RESTARTED }).code).toBe(0);
    await waitFor(() => rows(sb).every((r) => r.liveness === "online"), "all three back", 60000);
    // Each agent running now went back into its own conversation, with no prompt.
    for (const id of ids) {
      const argv = readFileSync(`/proc/${storedRecord(sb.home, id).agent_pid}/cmdline`, "utf8").split("\0").filter(Boolean);
      expect(argv.slice(-2)).toEqual(["--resume", native[id]!]);
    }
    // Nothing started afresh: the only starts with a prompt are the three first ones.
    expect(agents.entries().filter((e) => e.kind === "argv" && e.argv.includes("--session-id"))).toHaveLength(3);
  }, 180000);
});
