// Shell sessions (issue 12 item 7): how long a message takes from `send` to
// the shell running it, per shell, with the fake agent of the comms bench as
// the baseline measured in the same run. Idle: `send` hands over inline and
// the command's own clock says when it ran. Busy: the message is queued while
// a command runs and typed once the prompt is back (the prompt hook's stop →
// a detached deliver), measured from the busy command's last act.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { targetState } from "../lib/comms";
import { projectStore } from "../lib/store";
import { startFakeAgent } from "../test/support/comms";
import { SPEX_BIN, sandbox, waitFor } from "../test/support/sandbox";
import { type ShellSession, installed, send, startShellSession } from "../test/support/shell-sessions";
import { median, ms, table, timeCommand } from "./support";

const ROUNDS = 10;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

/** Wall-clock ms a command in the session wrote with `date +%s%N`. */
async function stamp(s: ShellSession, name: string): Promise<number> {
  const p = join(s.worktree, name);
  await waitFor(() => existsSync(p) && readFileSync(p, "utf8").endsWith("\n"), name, 20000, 2);
  return Number(readFileSync(p, "utf8").trim()) / 1e6;
}

const SHELLS = [
  { name: "bash", command: "bash" },
  { name: "zsh", command: "zsh" },
  { name: "fish", command: "fish" },
  { name: "plain sh (pane watcher)", command: "sh -c 'exec sh' run" },
];

export default async function run(): Promise<void> {
  const sb = sandbox();
  try {
    const store = projectStore(sb.repo, sb.home);
    const startup = median(Array.from({ length: 10 }, () => timeCommand(SPEX_BIN, ["--version"], { env: sb.env })));

    // Baseline: the comms bench's fake agent, idle, reporting its turns through the binary.
    const agent = await startFakeAgent(sb);
    const fake: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      await waitFor(() => targetState(store, agent.id).atRest, "the agent at rest", 20000, 5);
      const t0 = performance.now();
      timeCommand(SPEX_BIN, ["session", "send", agent.id, `bench ${i}`], { cwd: sb.repo, env: sb.env });
      await waitFor(() => agent.received().length === i + 1, "the message", 20000, 2);
      fake.push(performance.now() - t0);
    }
    const base = median(fake);

    const rows: string[][] = [["fake agent (baseline)", "idle", String(fake.length), ms(base), ms(pct(fake, 90)), "1.00"]];
    for (const sh of SHELLS) {
      if (!installed(sh.command.split(" ")[0]!)) {
        rows.push([sh.name, "-", "0", "not installed", "", ""]);
        continue;
      }
      const s = startShellSession(sb, sh.command, ":");
      const atRest = () => waitFor(() => targetState(store, s.id).atRest, `${sh.name} at rest`, 20000, 5);
      const idle: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        await atRest();
        const t0 = Date.now();
        send(sb, s, `date +%s%N > idle-${i}`);
        idle.push((await stamp(s, `idle-${i}`)) - t0);
      }
      const busy: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        await atRest();
        send(sb, s, `sleep 0.3; date +%s%N > busy-end-${i}`);
        send(sb, s, `date +%s%N > busy-next-${i}`);
        busy.push((await stamp(s, `busy-next-${i}`)) - (await stamp(s, `busy-end-${i}`)));
      }
      rows.push([sh.name, "idle", String(idle.length), ms(median(idle)), ms(pct(idle, 90)), (median(idle) / base).toFixed(2)]);
      rows.push([sh.name, "busy", String(busy.length), ms(median(busy)), ms(pct(busy, 90)), (median(busy) / base).toFixed(2)]);
    }
    process.stdout.write(`binary startup (--version, median of 10): ${ms(startup)}\n`);
    process.stdout.write("idle: send -> the command runs; busy: the running command's last act -> the queued message runs\n\n");
    process.stdout.write(table(["session", "case", "n", "median", "p90", "x baseline"], rows));
  } finally {
    sb.cleanup();
  }
}
