// The launch queue (issue 13 item 4): past sessions.maxActive a create queues
// instead of refusing, and whichever spex process frees a slot launches the
// oldest queued session, exactly once across processes.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { spexAsync } from "./backend-support";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

/** A launcher that logs each launch of a session (its id), then stays up as the agent. */
function countingFleet(s: Sandbox, maxActive: number, extra: Record<string, unknown> = {}): string {
  const log = join(s.dir, "launches.log");
  const command = `sh -c 'printf "%s\\n" "$SPEX_SESSION_ID" >> ${log}; exec sleep 600' counted`;
  writeFileSync(join(s.repo, "spexcode.local.json"), JSON.stringify({ sessions: { maxActive, ...extra }, launchers: { counted: { harness: "shell", command } } }));
  return log;
}

function launches(log: string): string[] {
  return existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
}


interface Row {
  id: string;
  display: string;
  queuePosition: number | null;
  createdAt: string;
  liveness: string;
}

function rows(s: Sandbox): Row[] {
  const r = s.spex(["session", "ls", "--json"]);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

function create(s: Sandbox, prompt: string, extra: string[] = []) {
  const r = s.spex(["session", "new", "--launcher", "counted", "--json", ...extra, prompt]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

describe("the launch queue", () => {
  test("10 concurrent creates with maxActive 3: 3 launch, 7 queue in order; each freed slot launches the oldest, no session twice", async () => {
    sb = sandbox();
    const log = countingFleet(sb, 3);
    // Ten creates in ten processes at once; the project lock orders them (a loaded machine may need the wait).
    const env = { SPEX_LOCK_TIMEOUT_MS: "120000" };
    const created = await Promise.all(Array.from({ length: 10 }, (_, i) => spexAsync(sb, ["session", "new", "--launcher", "counted", "--json", `task number ${i}`], { env })));
    for (const r of created) expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    const answers = created.map((r) => JSON.parse(r.stdout));
    expect(answers.filter((a) => a.queuePosition === null)).toHaveLength(3);
    expect(answers.filter((a) => a.queuePosition !== null && a.status === "queued")).toHaveLength(7);

    const first = rows(sb);
    expect(first).toHaveLength(10);
    const byAge = [...first].sort((a, b) => (a.createdAt === b.createdAt ? a.id.localeCompare(b.id) : a.createdAt < b.createdAt ? -1 : 1));
    const queued = byAge.filter((r) => r.display === "queued");
    expect(queued.map((r) => r.queuePosition)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const running = byAge.filter((r) => r.display !== "queued").map((r) => r.id);
    expect(running).toHaveLength(3);
    // Each running one was made before every queued one: nobody jumped the line.
    expect(byAge.slice(0, 3).map((r) => r.id)).toEqual(running);
    await waitFor(() => launches(log).length === 3, "the first three launches", 30000);
    expect(new Set(launches(log))).toEqual(new Set(running));

    const order = queued.map((r) => r.id);
    const live = [...running];
    // Free slots one at a time: each stop launches exactly the oldest waiting session.
    for (let step = 0; step < 3; step++) {
      const stop = sb.spex(["session", "stop", live.shift()!, "--json"]);
      expect(stop.code).toBe(0);
      const next = order[step]!;
      expect(JSON.parse(stop.stdout).launchedFromQueue).toEqual([next]);
      live.push(next);
      await waitFor(() => launches(log).includes(next), `the launch of ${next}`, 30000);
    }
    expect(rows(sb).filter((r) => r.display === "queued").map((r) => r.queuePosition)).toEqual([1, 2, 3, 4]);

    // Three slots freed at once, by three processes: the next three launch, each exactly once.
    const stops = await Promise.all(live.splice(0, 3).map((id) => spexAsync(sb, ["session", "stop", id, "--json"], { env })));
    for (const r of stops) expect(r.code).toBe(0);
    const launchedNow = stops.flatMap((r) => JSON.parse(r.stdout).launchedFromQueue as string[]);
    expect(new Set(launchedNow)).toEqual(new Set(order.slice(3, 6)));
    expect(launchedNow).toHaveLength(3);
    live.push(...launchedNow);
    await waitFor(() => launches(log).length === 9, "nine launches", 30000);

    const last = sb.spex(["session", "stop", live.shift()!, "--json"]);
    expect(JSON.parse(last.stdout).launchedFromQueue).toEqual([order[6]]);
    await waitFor(() => launches(log).length === 10, "ten launches", 30000);

    // Every session launched exactly once, and nothing waits any more.
    const counts = new Map<string, number>();
    for (const id of launches(log)) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual(first.map((r) => r.id).sort());
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(rows(sb).filter((r) => r.display === "queued")).toEqual([]);
  }, 240000);

  test("queued is answered at once with worktree and record; --no-queue keeps the refusal", () => {
    sb = sandbox();
    countingFleet(sb, 1);
    create(sb, "the one running");
    const q = create(sb, "waits its turn");
    expect(q).toMatchObject({ status: "queued", queuePosition: 1, ready: false, stopped: true });
    expect(existsSync(q.worktree_path)).toBe(true);
    expect(sb.tmux(["has-session", "-t", `=${q.tmux_session}`]).status).not.toBe(0);
    const human = sb.spex(["session", "ls"]);
    expect(human.stdout).toContain("queued #1");
    const refused = sb.spex(["session", "new", "--launcher", "counted", "--no-queue", "--json", "in a hurry"]);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error.code).toBe("max_active_reached");
  });

  test("a running session that is archived still holds its slot (its pane runs); archive --stop frees it", () => {
    sb = sandbox();
    const log = countingFleet(sb, 1);
    const a = create(sb, "archived but running");
    expect(sb.spex(["session", "archive", a.session_id]).code).toBe(0);
    const b = create(sb, "must wait for a real slot");
    expect(b.status).toBe("queued");
    const freed = sb.spex(["session", "archive", a.session_id, "--stop", "--json"]);
    expect(freed.code).toBe(0);
    expect(JSON.parse(freed.stdout).launchedFromQueue).toEqual([b.session_id]);
    return waitFor(() => launches(log).includes(b.session_id), "b launched", 30000);
  });

  test("a slot freed behind spex's back (the agent killed) is used by the next ls", async () => {
    sb = sandbox();
    const log = countingFleet(sb, 1);
    const a = create(sb, "killed from outside");
    const b = create(sb, "waiting");
    expect(b.status).toBe("queued");
    const pid = Number(readFileSync(join(sb.home, "projects", sessionsKey(sb), "sessions", a.session_id, "agent.pid"), "utf8").split(" ")[0]);
    process.kill(pid, "SIGKILL");
    await waitFor(() => rows(sb).find((r) => r.id === b.session_id)?.display !== "queued", "ls to launch b", 30000);
    await waitFor(() => launches(log).includes(b.session_id), "b launched", 30000);
    expect(launches(log).filter((id) => id === b.session_id)).toHaveLength(1);
  });

  test("close frees a slot; a queued session that is stopped leaves the queue, and resume starts one out of turn", async () => {
    sb = sandbox();
    const log = countingFleet(sb, 1);
    const a = create(sb, "running");
    const b = create(sb, "second");
    const c = create(sb, "third");
    expect([b.queuePosition, c.queuePosition]).toEqual([1, 2]);
    // Stopping a queued session takes it out of line: it waits for a resume, not a slot.
    expect(sb.spex(["session", "stop", b.session_id]).code).toBe(0);
    const after = rows(sb);
    expect(after.find((r) => r.id === b.session_id)).toMatchObject({ display: "offline", queuePosition: null });
    expect(after.find((r) => r.id === c.session_id)).toMatchObject({ display: "queued", queuePosition: 1 });
    const closed = sb.spex(["session", "close", a.session_id, "--force", "--json"]);
    expect(closed.code).toBe(0);
    expect(JSON.parse(closed.stdout).launchedFromQueue).toEqual([c.session_id]);
    await waitFor(() => launches(log).includes(c.session_id), "c launched", 30000);
    // b, stopped while queued, never launched; resume starts it fresh with its prompt.
    expect(launches(log)).not.toContain(b.session_id);
    const resumed = sb.spex(["session", "resume", b.session_id, "--json"]);
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    await waitFor(() => launches(log).includes(b.session_id), "b launched by resume", 30000);
  });
});

function sessionsKey(s: Sandbox): string {
  return require("node:fs").readdirSync(join(s.home, "projects"))[0];
}

describe("waiting on a queued session", () => {
  test("wait --idle on a session still in the queue keeps waiting (it is not stopped), and ends once it runs", () => {
    sb = sandbox();
    countingFleet(sb, 1);
    const a = create(sb, "holds the only slot");
    const b = create(sb, "queued behind it");
    const waited = sb.spex(["session", "wait", b.session_id, "--idle", "--timeout", "2", "--json"]);
    expect(JSON.parse(waited.stdout).outcome).toBe("timed_out");
    expect(waited.code).toBe(1);
    expect(sb.spex(["session", "stop", a.session_id]).code).toBe(0);
    const running = sb.spex(["session", "wait", b.session_id, "--until", "working,idle", "--timeout", "30", "--json"]);
    expect(JSON.parse(running.stdout).outcome).toBe("reached");
  });
});
