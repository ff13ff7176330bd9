// Comms figures (issue 6): how fast a parked `wait` wakes after a state change
// (file-notification path; the poll fallback is switched off), and how long a
// message takes from `send` to the agent, both to an idle fake agent (handed
// over inline by send) and to a busy one (handed over after its Stop).
// SPEX_BENCH_BASELINE_BIN=<another spex binary> also times that binary's
// `send` in the same run, round for round alternating with this build, and
// prints the ratio (the machine's load moves too much between runs).
import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { targetState } from "../lib/comms";
import "../lib/comms/install";
import { declareState } from "../lib/sessions";
import { projectStore } from "../lib/store";
import { startFakeAgent } from "../test/support/comms";
import { seedRecord } from "../test/support/records";
import { SPEX_BIN, sandbox, waitFor } from "../test/support/sandbox";
import { median, ms, table, timeCommand } from "./support";

const ROUNDS = 20;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

function row(what: string, xs: number[]): string[] {
  return [what, String(xs.length), ms(median(xs)), ms(pct(xs, 90)), ms(Math.max(...xs))];
}

export default async function run(): Promise<void> {
  const sb = sandbox();
  try {
    const store = projectStore(sb.repo, sb.home);
    const startup = median(Array.from({ length: 10 }, () => timeCommand(SPEX_BIN, ["--version"], { env: sb.env })));

    const baselineBin = process.env.SPEX_BENCH_BASELINE_BIN;
    // wait wake-up: a waiter parked on a session; the state change is committed in-process.
    const s = seedRecord(sb.home, sb.repo, { status: "active" });
    const wake: number[] = [];
    const baseWake: number[] = [];
    for (let i = 0; i < (baselineBin ? 2 * ROUNDS : ROUNDS); i++) {
      // Pairs of rounds per binary, so each sees both transitions.
      const baseline = baselineBin !== undefined && (i >> 1) % 2 === 1;
      const armed = join(sb.dir, `armed-${i}`);
      const child = spawn(baseline ? baselineBin : SPEX_BIN, ["session", "wait", s.session_id], { cwd: sb.repo, env: { ...sb.env, SPEX_WAIT_POLL_MS: "600000", SPEX_TEST_WAIT_ARMED: armed }, stdio: "ignore" });
      const exited = new Promise<number>((resolve) => child.on("close", () => resolve(performance.now())));
      await waitFor(() => existsSync(armed), "the waiter to arm");
      const t0 = performance.now();
      await declareState(store, s.session_id, { status: i % 2 ? "active" : "idle" });
      (baseline ? baseWake : wake).push((await exited) - t0);
      rmSync(armed, { force: true });
    }

    // send → delivered to an idle fake agent (inline handover by send itself).
    const agent = await startFakeAgent(sb);
    const idleSend: number[] = [];
    const idleArrive: number[] = [];
    const baseSend: number[] = [];
    const baseArrive: number[] = [];
    let sent = 0;
    for (let i = 0; i < (baselineBin ? 2 * ROUNDS : ROUNDS); i++) {
      const baseline = baselineBin !== undefined && i % 2 === 1;
      await waitFor(() => targetState(store, agent.id).atRest, "the agent to be at rest", 20000, 5);
      const t0 = performance.now();
      const took = timeCommand(baseline ? baselineBin : SPEX_BIN, ["session", "send", agent.id, `bench message ${i}`], { cwd: sb.repo, env: sb.env });
      (baseline ? baseSend : idleSend).push(took);
      await waitFor(() => agent.received().length === sent + 1, "the message", 20000, 2);
      sent++;
      (baseline ? baseArrive : idleArrive).push(performance.now() - t0);
    }

    // Busy target: queued, then handed over by the detached drain the Stop state write starts.
    const busy: number[] = [];
    for (let i = 0; i < 10; i++) {
      await waitFor(() => targetState(store, agent.id).atRest, "the agent to be at rest", 20000, 5);
      timeCommand(SPEX_BIN, ["internal", "session-state", "active", "--session", agent.id], { cwd: sb.repo, env: sb.env });
      timeCommand(SPEX_BIN, ["session", "send", agent.id, `queued message ${i}`], { cwd: sb.repo, env: sb.env });
      const before = agent.received().length;
      const t0 = performance.now();
      // The Stop hook's write, through the binary as a hook runs it.
      timeCommand(SPEX_BIN, ["internal", "session-state", "idle", "--session", agent.id], { cwd: sb.repo, env: sb.env });
      await waitFor(() => agent.received().length === before + 1, "the queued message", 20000, 2);
      busy.push(performance.now() - t0);
    }

    process.stdout.write(`binary startup (--version, median of 10): ${ms(startup)}\n\n`);
    process.stdout.write(
      table(
        ["what", "n", "median", "p90", "max"],
        [
          row("wait wake-up after a state change", wake),
          row("send to an idle agent: send command returns", idleSend),
          row("send to an idle agent: message submitted", idleArrive),
          row("busy agent: Stop state write -> message submitted", busy),
        ],
      ),
    );
    if (baselineBin) {
      const ratio = (a: number[], b: number[]) => `${(median(a) / median(b)).toFixed(2)} ×`;
      process.stdout.write(`\nthis build against ${baselineBin}, alternating round for round:\n`);
      process.stdout.write(
        table(
          ["what", "n", "this build", "baseline", "ratio"],
          [
            ["wait wake-up", String(wake.length), ms(median(wake)), ms(median(baseWake)), ratio(wake, baseWake)],
            ["send command returns", String(idleSend.length), ms(median(idleSend)), ms(median(baseSend)), ratio(idleSend, baseSend)],
            ["message submitted", String(idleArrive.length), ms(median(idleArrive)), ms(median(baseArrive)), ratio(idleArrive, baseArrive)],
          ],
        ),
      );
    }
  } finally {
    sb.cleanup();
  }
}
