// Several machines over real OpenSSH on loopback (test/support/ssh-machines.ts):
// `live --all-machines` over two hosts against each host alone (DESIGN.md §11:
// ≈ the slower host, not the sum), and a warm remote `ls` against a local one.
// The "slower" host is the one with three times the panes. Every live answer
// is checked: each pane's row, with its own last line, from its own machine.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { SPEX_BIN, sandbox } from "../test/support/sandbox";
import { PaneStage, openPanes, waitForScreens } from "../test/support/panes";
import { type SshMachine, sshFleet, sshUnavailable } from "../test/support/ssh-machines";
import { seedRecord } from "../test/support/records";
import { median, ms, table } from "./support";

const PANES: Record<string, number> = { m1: 30, m2: 90 };
const SESSIONS = 50;
const ROUNDS = 7;

export default async function run(): Promise<void> {
  const unavailable = sshUnavailable();
  if (unavailable) {
    process.stdout.write(`skipped: ${unavailable}\n`);
    return;
  }
  const sb = sandbox();
  const fleet = await sshFleet(sb, ["m1", "m2"]);
  const env = { ...sb.env, SPEX_SSH_COMMAND: fleet.sshCommand, SPEX_MACHINE: "local", SPEX_TMUX_SERVERS: sb.tmuxSocket };
  const spex = (args: string[]) => {
    const t0 = performance.now();
    const r = spawnSync(SPEX_BIN, args, { cwd: sb.repo, env, encoding: "utf8", maxBuffer: 64 << 20 });
    const took = performance.now() - t0;
    if (r.status !== 0) throw new Error(`spex ${args.join(" ")}: ${r.stderr}`);
    return { took, stdout: r.stdout };
  };
  try {
    const expected = new Map<string, Map<string, string>>();
    for (const m of fleet.machines) {
      spex(["machine", "add", m.name, m.name, "--repo", m.repo]);
      spex(["machine", "install", m.name]);
      expected.set(m.name, fillPanes(m, PANES[m.name]!));
      await waitForScreens(m.tmuxSocket, expected.get(m.name)!, { ...process.env, TMUX_TMPDIR: m.env.TMUX_TMPDIR });
    }

    // live: each host alone, then both at once; rounds alternate so load drifts hit all three alike.
    // Here both "hosts" share this machine's cores, so their CPU work cannot overlap fully; the second
    // run puts 250 ms of network latency in front of every ssh call (a sleep in SPEX_SSH_COMMAND), as a
    // distant host would, where waiting, not CPU, is what the fan-out overlaps.
    for (const [label, sshCommand] of [["loopback", fleet.sshCommand], ["loopback + 250 ms latency per call", `sleep 0.25; ${fleet.sshCommand}`]] as const) {
      env.SPEX_SSH_COMMAND = sshCommand;
      process.stdout.write(`${label}:\n`);
      liveFigures(spex, expected);
    }
    env.SPEX_SSH_COMMAND = fleet.sshCommand;

    // ls: the same number of sessions here and on m1; the remote one through a warm shared connection.
    const m1 = fleet.machines[0]!;
    for (let i = 0; i < SESSIONS; i++) {
      seedRecord(sb.home, sb.repo, { prompt: `local session ${i}` });
      seedRecord(m1.spexHome, m1.repo, { prompt: `remote session ${i}` });
    }
    const lsCalls: Record<string, string[]> = {
      "local ls": ["session", "ls", "--json"],
      "remote ls (warm)": ["session", "ls", "--machine", "m1", "--json"],
      "spex --version (startup)": ["--version"],
    };
    const lsTimes: Record<string, number[]> = Object.fromEntries(Object.keys(lsCalls).map((k) => [k, []]));
    for (const args of Object.values(lsCalls)) spex(args);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, args] of Object.entries(lsCalls)) {
        const { took, stdout } = spex(args);
        if (args[1] === "ls" && (JSON.parse(stdout) as unknown[]).length !== SESSIONS) throw new Error(`${name} listed the wrong number of sessions`);
        lsTimes[name]!.push(took);
      }
    }
    const sshWarm = median(Array.from({ length: ROUNDS }, () => {
      const t0 = performance.now();
      spawnSync("ssh", ["-F", fleet.clientConfig, "-o", "ControlMaster=no", "-o", "ControlPath=none", "m1", "true"]);
      return performance.now() - t0;
    }));
    const lsMed = Object.fromEntries(Object.entries(lsTimes).map(([k, v]) => [k, median(v)]));
    process.stdout.write(table([`${SESSIONS} sessions`, "median"], [...Object.entries(lsMed).map(([k, v]) => [k, ms(v)]), ["ssh m1 true, no shared connection (a handshake)", ms(sshWarm)]]));
    process.stdout.write(`warm remote ls = ${(lsMed["remote ls (warm)"]! / lsMed["local ls"]!).toFixed(2)} x the local ls (two spex starts, one here and one there, plus the hop)\n`);
  } finally {
    await fleet.cleanup();
    sb.cleanup();
  }
}

/** Median times of live over m1 alone, m2 alone and both, every answer checked row by row. */
function liveFigures(spex: (args: string[]) => { took: number; stdout: string }, expected: Map<string, Map<string, string>>): void {
  const calls: Record<string, string[]> = {
    [`m1 alone (${PANES.m1} panes)`]: ["session", "live", "--machine", "m1", "--json"],
    [`m2 alone (${PANES.m2} panes)`]: ["session", "live", "--machine", "m2", "--json"],
    "--all-machines (both)": ["session", "live", "--all-machines", "--json"],
  };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(calls).map((k) => [k, []]));
  let right = 0;
  let total = 0;
  for (const args of Object.values(calls)) spex(args); // warm: connections up
  for (let round = 0; round < ROUNDS; round++) {
    const order = Object.keys(calls);
    if (round % 2) order.reverse();
    for (const name of order) {
      const { took, stdout } = spex(calls[name]!);
      times[name]!.push(took);
      const rows = JSON.parse(stdout) as Array<{ machine: string; paneId: string; lastVisibleLine: string | null }>;
      for (const [machine, panes] of expected) {
        if (!name.includes(machine) && !name.includes("both")) continue;
        for (const [paneId, line] of panes) {
          total++;
          if (rows.some((r) => r.machine === machine && r.paneId === paneId && r.lastVisibleLine === line)) right++;
        }
      }
    }
  }
  const med = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
  const [one, two, both] = Object.values(med) as [number, number, number];
  process.stdout.write(table(["live --json", "median"], Object.entries(med).map(([k, v]) => [k, ms(v)])));
  process.stdout.write(`both hosts = ${(both / Math.max(one, two)).toFixed(2)} x the slower host alone, ${(both / (one + two)).toFixed(2)} x the sum; rows right: ${right} of ${total}\n\n`);
}

/** Panes on a machine's tmux server, each showing a line no other pane shows; their ids and lines. */
function fillPanes(m: SshMachine, count: number): Map<string, string> {
  const shows = Array.from({ length: count }, (_, i) => ({ text: `${m.name} build ${i}\nstep ${i} of ${count} on ${m.name}`, line: `step ${i} of ${count} on ${m.name}` }));
  const ids = openPanes(new PaneStage(join(m.dir, "stage")), m.tmuxSocket, "bench", shows, { width: 120, height: 30, env: { ...process.env, TMUX_TMPDIR: m.env.TMUX_TMPDIR } });
  return new Map(ids.map((id, i) => [id, shows[i]!.line]));
}
