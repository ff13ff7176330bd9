// `spex board` at 200 sessions, through a real terminal (a tmux pane, keys by
// `send-keys`, frames by `capture-pane`), against DESIGN.md §11 and issue 23:
// a key to the repainted frame ≤ 50 ms at p95; idle CPU ≤ 2 % of one core; a
// status change on screen ≤ 1 s; RSS ≤ 150 MB. The sessions are records made
// cheaply through the one writer, each with a live pane of its own on the
// sessions' tmux server (its agent: a `cat` there, so the rows are online).
// The yardstick, measured in the same run: the same key-to-frame loop against
// a trivial program that redraws one line per key (the floor of send-keys +
// capture-pane on this machine).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { seedRecord } from "../test/support/records";
import { SPEX_BIN, type Sandbox, sandbox, waitFor } from "../test/support/sandbox";
import { type BoardTerminal, boardTerminal } from "../test/support/board-terminal";
import { median, ms, table, tmuxCounter } from "./support";

const SESSIONS = 200;
const PRESSES = 60;
const IDLE_S = 15;
const CHANGES = 5;

function p95(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)]!;
}

/** 200 panes (one tmux process), then a record per pane whose agent is the pane's process, by its start identity. */
function fleet(sb: Sandbox): string[] {
  const args: string[] = [];
  for (let i = 0; i < SESSIONS; i++) args.push(...(i ? [";"] : []), "new-session", "-d", "-s", `b${i}`, "-x", "120", "-y", "30", `printf 'agent ${i} at work\\n'; exec cat`);
  const made = sb.tmux(args);
  if (made.status !== 0) throw new Error(`tmux: ${made.stderr}`);
  const pids = new Map(
    sb
      .tmux(["list-panes", "-a", "-F", "#{session_name} #{pane_pid}"])
      .stdout.trim()
      .split("\n")
      .map((l) => l.split(" ") as [string, string]),
  );
  const ids: string[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    const pid = pids.get(`b${i}`)!;
    const start = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ")[19]!;
    const r = seedRecord(sb.home, sb.repo, {
      prompt: `task ${i}: improve module ${i} and its tests`,
      status: i % 3 === 0 ? "active" : "idle",
      tmux_socket: sb.tmuxSocket,
      tmux_session: `b${i}`,
      agent_pid: pid,
      agent_start: start,
    });
    ids.push(r.session_id);
  }
  return ids;
}

/** Press `key` and time until the selected line differs from before (polled capture-pane). */
async function keyToFrame(t: BoardTerminal, key: string, marker: RegExp): Promise<number> {
  const selected = () => t.screen().split("\n").find((l) => marker.test(l)) ?? "";
  const before = selected();
  const t0 = performance.now();
  t.keys(key);
  await waitFor(() => selected() !== before, `the frame after ${key}`, 3000, 0);
  return performance.now() - t0;
}

function cpuTicks(pid: string): number {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ");
  return Number(f[11]) + Number(f[12]);
}

function status(pid: string, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

export default async function run(): Promise<void> {
  const sb = sandbox();
  let term: BoardTerminal | undefined;
  let floor: BoardTerminal | undefined;
  try {
    const ids = fleet(sb);
    const counter = tmuxCounter(sb.dir);
    term = boardTerminal(sb, { columns: 120, rows: 40, env: counter.env });
    term.type(`'${SPEX_BIN}' board`);
    term.keys("Enter");
    await term.until(`${SESSIONS} sessions`, 30000);
    const pid = spawnSync("pgrep", ["-P", term.format("#{pane_pid}")], { encoding: "utf8" }).stdout.trim().split("\n")[0]!;

    // Key → repainted frame: j down the list (the selection and the preview title move).
    await term.until("agent 0 at work", 10000).catch(() => undefined);
    const keys: number[] = [];
    for (let i = 0; i < PRESSES; i++) keys.push(await keyToFrame(term, "j", /^› /));

    // The floor: the same loop against a program that draws one line per key.
    floor = boardTerminal(sb, { columns: 120, rows: 40, name: "floor" });
    floor.type(`stty raw -echo; n=0; while IFS= read -r -n1 k; do n=$((n+1)); printf '\\r› key %d   ' "$n"; done`);
    floor.keys("Enter");
    await keyToFrame(floor, "j", /^› key/);
    const floorKeys: number[] = [];
    for (let i = 0; i < PRESSES; i++) floorKeys.push(await keyToFrame(floor, "j", /^› key/));

    // Idle: no key, no change; what the board costs sitting there (and the tmux processes it starts).
    const idleStart = performance.now();
    const ticks0 = cpuTicks(pid);
    counter.reset();
    await new Promise((r) => setTimeout(r, IDLE_S * 1000)); // the measured idle interval itself, not a synchronisation
    const cpu = ((cpuTicks(pid) - ticks0) / 100 / ((performance.now() - idleStart) / 1000)) * 100;
    const idleTmux = counter.count();

    // A status change made by the one writer (as an agent's hook makes it) → on screen.
    const changes: number[] = [];
    for (let k = 1; k <= CHANGES; k++) {
      const id = ids[k * 7]!;
      const w = spawnSync(SPEX_BIN, ["internal", "session-state", "asking", "--session", id, "--note", `bench question ${k}`], { cwd: sb.repo, env: sb.env, encoding: "utf8" });
      if (w.status !== 0) throw new Error(`session-state: ${w.stderr}`);
      const t0 = performance.now();
      await term.until(`${k} asking`, 5000);
      changes.push(performance.now() - t0);
    }
    const rss = status(pid, "VmRSS");
    const peak = status(pid, "VmHWM");

    const verdict = (ok: boolean, budget: string) => `${ok ? "ok" : "MISSED"} (${budget})`;
    process.stdout.write(
      table(
        ["what", "figure", "yardstick", "budget"],
        [
          [`key → frame, p95 of ${PRESSES}`, ms(p95(keys)), `floor ${ms(p95(floorKeys))} (${(p95(keys) / p95(floorKeys)).toFixed(1)} ×)`, verdict(p95(keys) <= 50, "≤ 50 ms")],
          [`key → frame, median`, ms(median(keys)), `floor ${ms(median(floorKeys))}`, ""],
          [`idle CPU over ${IDLE_S} s`, `${cpu.toFixed(2)} % of a core`, `${idleTmux} tmux processes (${(idleTmux / IDLE_S).toFixed(1)}/s: the preview)`, verdict(cpu <= 2, "≤ 2 %")],
          [`status change → screen, max of ${CHANGES}`, ms(Math.max(...changes)), `median ${ms(median(changes))}`, verdict(Math.max(...changes) <= 1000, "≤ 1 s")],
          ["RSS (peak)", `${rss.toFixed(0)} MB (${peak.toFixed(0)} MB)`, "", verdict(peak <= 150, "≤ 150 MB")],
        ],
      ) + `${SESSIONS} sessions with live panes, a 120×40 terminal (tmux), the compiled binary; the floor is a shell loop redrawing one line per key, timed the same way (send-keys, then capture-pane until the line changes)\n`,
    );
  } finally {
    term?.kill();
    floor?.kill();
    sb.cleanup();
  }
}

if (require.main === module) void run();
