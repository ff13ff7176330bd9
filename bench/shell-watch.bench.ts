// What a plain command at rest costs the machine: the CPU its watcher
// (hooks/shell-watch.sh) and the `sleep`s between its looks take, per session,
// once the command has been quiet a while. The yardstick, in the same run:
// the same fleet with the watcher kept on its quick looks for ever (the
// behaviour before it calmed down after 50 quiet looks).
import { readFileSync, readdirSync } from "node:fs";
import { sandbox, waitFor } from "../test/support/sandbox";
import { startShellSession, waitIdle } from "../test/support/shell-sessions";
import { table } from "./support";

const SESSIONS = 10;
/** Quiet looks before the watcher calms down (about 15 s), and a margin. */
const SETTLE_MS = 25_000;
const MEASURE_MS = 15_000;
const TICKS_PER_S = 100;

/** The watcher processes whose command line names this sandbox's hooks. */
function watchers(home: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, "utf8");
      if (argv.includes(`${home}/hooks/spex-shell-watch`)) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** utime + stime + cutime + cstime: its own CPU and that of the sleeps it waited for. */
function cpuTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  } catch {
    return undefined;
  }
}

export default async function run(): Promise<void> {
  const fleets = [
    { name: "calming after 50 quiet looks (now)", env: {} as Record<string, string> },
    { name: "quick looks for ever (before)", env: { SPEX_SHELL_WATCH_CALM_AFTER: "1000000000" } },
  ].map((f) => ({ ...f, sb: sandbox() }));
  try {
    for (const f of fleets) {
      for (let i = 0; i < SESSIONS; i++) {
        waitIdle(f.sb, startShellSession(f.sb, "sh -c 'exec sleep 3600' idle", `idle ${i}`, f.env, { sessions: { maxActive: SESSIONS } }));
      }
      await waitFor(() => watchers(f.sb.home).length === SESSIONS, `${f.name}: ${SESSIONS} watchers`, 20_000, 100);
    }
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const before = fleets.map((f) => new Map(watchers(f.sb.home).map((p) => [p, cpuTicks(p)])));
    await new Promise((r) => setTimeout(r, MEASURE_MS));
    const perSession = fleets.map((f, i) => {
      let ticks = 0;
      let n = 0;
      for (const [pid, t0] of before[i]!) {
        const t1 = cpuTicks(pid);
        if (t0 === undefined || t1 === undefined) continue;
        ticks += t1 - t0;
        n++;
      }
      // Per cent of one core, per session.
      return n === 0 ? NaN : (ticks / TICKS_PER_S / (MEASURE_MS / 1000) / n) * 100;
    });
    const base = perSession[1]!;
    process.stdout.write(`${SESSIONS} plain commands at rest per fleet, measured for ${MEASURE_MS / 1000} s after ${SETTLE_MS / 1000} s of rest\n\n`);
    process.stdout.write(
      table(
        ["watcher", "CPU per session (% of a core)", "x the quick looks"],
        fleets.map((f, i) => [f.name, perSession[i]!.toFixed(2), (perSession[i]! / base).toFixed(2)]),
      ),
    );
  } finally {
    for (const f of fleets) f.sb.cleanup();
  }
}
