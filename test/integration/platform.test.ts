// The portable process backend at fleet scale (issue 18): where `ps` stands in
// for /proc (macOS, SPEX_PROC=ps), listing a fleet asks the process table
// once, not once per session, and still shows each live agent online.
import { afterEach, describe, expect, test } from "bun:test";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { psBackend } from "../../lib/proc/ps";
import { seedRecord } from "../support/records";
import { type Sandbox, SPEX_BIN, sandbox, waitFor } from "../support/sandbox";

let sb: Sandbox | undefined;

/** A `ps` on PATH that writes each run's arguments to a log, then runs the real one. */
function loggingPs(box: Sandbox): { bin: string; log: string } {
  const real = spawnSync("sh", ["-c", "command -v ps"], { encoding: "utf8" }).stdout.trim();
  const bin = join(box.dir, "logging-bin");
  mkdirSync(bin);
  const log = join(box.dir, "ps-runs");
  writeFileSync(join(bin, "ps"), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(join(bin, "ps"), 0o755);
  writeFileSync(log, "");
  return { bin, log };
}
const agents: ChildProcess[] = [];
afterEach(() => {
  for (const a of agents.splice(0)) a.kill("SIGKILL");
  sb?.cleanup();
});

describe("ls under the ps backend", () => {
  test("40 live sessions and 10 dead ones: every live one online, every dead one offline, and ps runs at most twice (one table, at most one self identity)", async () => {
    sb = sandbox();
    const live: string[] = [];
    const dead: string[] = [];
    for (let i = 0; i < 40; i++) {
      const agent = spawn("sleep", ["1000"], { stdio: "ignore" });
      agents.push(agent);
      const info = await waitFor(() => psBackend.info(agent.pid!), "the agent to be listed by ps");
      live.push(seedRecord(sb.home, sb.repo, { prompt: `live ${i}`, status: "active", agent_pid: String(agent.pid), agent_start: info.start }).session_id);
    }
    for (let i = 0; i < 10; i++) {
      // A live pid with a start a second off: not the recorded agent.
      const info = psBackend.info(agents[i]!.pid!)!;
      const other = `@${Number(info.start.slice(1)) - 1}`;
      dead.push(seedRecord(sb.home, sb.repo, { prompt: `gone ${i}`, status: "active", agent_pid: String(agents[i]!.pid), agent_start: other }).session_id);
    }

    const { bin, log: count } = loggingPs(sb);
    const r = sb.spex(["session", "ls", "--json"], { env: { SPEX_PROC: "ps", PATH: `${bin}:${sb.env.PATH}` } });
    expect(r.stderr).toBe("");
    const rows = JSON.parse(r.stdout) as { id: string; liveness: string }[];
    const liveness = new Map(rows.map((row) => [row.id, row.liveness]));
    expect(live.map((id) => liveness.get(id))).toEqual(Array(40).fill("online"));
    expect(dead.map((id) => liveness.get(id))).toEqual(Array(10).fill("offline"));
    const runs = readFileSync(count, "utf8").split("\n").filter(Boolean).length;
    expect(runs).toBeGreaterThanOrEqual(1);
    expect(runs).toBeLessThanOrEqual(2);
  }, 120000);

  // A long-lived reader (wait, the backend) reuses its table: a row must not show alive an agent
  // whose death the same row reports. A zombie (killed, not yet reaped) still has its pid.
  test("wait on an agent SIGKILLed after the waiter read the process table: died, and offline in the same row", async () => {
    sb = sandbox();
    const pidFile = join(sb.dir, "agent.pid");
    // The agent's parent execs into sleep and never reaps it: once killed it stays a zombie.
    const made = sb.tmux(["new-session", "-d", "-s", "reaps-nothing", `sleep 1000 & echo $! > '${pidFile}'; exec sleep 2000`]);
    expect(made.status).toBe(0);
    const pid = Number(await waitFor(() => (existsSync(pidFile) ? readFileSync(pidFile, "utf8").trim() || undefined : undefined), "the agent's pid"));
    const info = await waitFor(() => psBackend.info(pid), "the agent to be listed by ps");
    const s = seedRecord(sb.home, sb.repo, { status: "active", harness: "", tmux_socket: sb.tmuxSocket, tmux_session: "reaps-nothing", agent_pid: String(pid), agent_start: info.start });

    const { bin, log } = loggingPs(sb);
    const env = { ...sb.env, SPEX_PROC: "ps", SPEX_PS_TABLE_MS: "600000", SPEX_WAIT_LIVENESS_MS: "100", PATH: `${bin}:${sb.env.PATH}` };
    const waiter = spawn(SPEX_BIN, ["session", "wait", s.session_id.slice(0, 8), "--idle", "--timeout", "20", "--json"], { cwd: sb.repo, env });
    let stdout = "";
    waiter.stdout.on("data", (d) => (stdout += d));
    const code = new Promise<number | null>((resolve) => waiter.on("close", resolve));
    await waitFor(() => readFileSync(log, "utf8").includes("-A") || undefined, "the waiter to read the process table");
    process.kill(pid, "SIGKILL");

    expect(await code).toBe(2);
    const out = JSON.parse(stdout);
    expect(out.outcome).toBe("died");
    expect(out.sessions[0]).toMatchObject({ died: true, liveness: "offline", diedReason: expect.stringMatching(/not running/) });
  }, 60000);
});
