// The portable process backend at fleet scale (issue 18): where `ps` stands in
// for /proc (macOS, SPEX_PROC=ps), listing a fleet asks the process table
// once, not once per session, and still shows each live agent online.
import { afterEach, describe, expect, test } from "bun:test";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { psBackend } from "../../lib/proc/ps";
import { seedRecord } from "../support/records";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";

let sb: Sandbox | undefined;
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

    // A `ps` on PATH that counts its runs, then runs the real one.
    const real = spawnSync("sh", ["-c", "command -v ps"], { encoding: "utf8" }).stdout.trim();
    const bin = join(sb.dir, "counting-bin");
    mkdirSync(bin);
    const count = join(sb.dir, "ps-runs");
    writeFileSync(join(bin, "ps"), `#!/bin/sh\necho run >> '${count}'\nexec '${real}' "$@"\n`);
    chmodSync(join(bin, "ps"), 0o755);
    writeFileSync(count, "");

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
});
