// Process identity across the two backends (issue 18): /proc and `ps` agree
// on what "the same process" is; a start recorded by one is never taken for
// another process by the other; the launch script records a start either
// reads, with /proc or without it.
import { afterEach, describe, expect, test } from "bun:test";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ASSETS } from "../../lib/generated/assets";
import { epochStart, lstartSeconds, startForm } from "../../lib/proc/identity";
import { linuxBackend } from "../../lib/proc/linux";
import { psBackend } from "../../lib/proc/ps";
import { judge } from "../../lib/proc/verdict";
import { anotherStart } from "../support/processes";
import { waitFor } from "../support/sandbox";

const started: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const c of started.splice(0)) c.kill("SIGKILL");
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), "spex-proc-"));
  dirs.push(dir);
  return dir;
}

/** The launch template's pid recording, as a launch script runs it, followed by an exec. */
function recordPidScript(pidFile: string, then: string): string {
  return `set -u\n${ASSETS["launch-templates/record-pid.sh"]!.replace(/@@PIDFILE@@/g, `'${pidFile}'`)}\n${then}\n`;
}

/** Start `sleep` through the launch template's pid recording; its pid and the start it recorded. */
async function launched(env: Record<string, string>): Promise<{ pid: number; start: string }> {
  const dir = scratch();
  const pidFile = join(dir, "agent.pid");
  const child = spawn("sh", ["-c", recordPidScript(pidFile, "exec sleep 1000")], { env: { ...process.env, ...env }, stdio: "ignore" });
  started.push(child);
  const text = await waitFor(() => {
    try {
      return readFileSync(pidFile, "utf8");
    } catch {
      return undefined;
    }
  }, "the launch script to record its pid");
  const [pid, start] = text.trim().split(" ");
  expect(Number(pid)).toBe(child.pid!);
  return { pid: child.pid!, start: start ?? "" };
}

describe("start identities", () => {
  test("the launch script turns `ps -o lstart` into the same seconds lib/proc does: every month, leap days, the turn of a year and of a century", () => {
    const dir = scratch();
    const bin = join(dir, "bin");
    mkdirSync(bin);
    const dates = [
      "Thu Jan  1 00:00:00 1970",
      "Tue Dec  1 05:52:51 2026",
      "Sun Feb 29 23:59:59 2032",
      "Mon Mar  1 00:00:00 2100",
      "Tue Feb 29 12:08:09 2000",
      "Fri Dec 31 23:59:59 1999",
      "Sat Jan  1 00:00:00 2000",
      ...["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].map((m, i) => `Wed ${m} ${10 + i} 0${i % 10}:0${(i * 7) % 10}:0${(i * 3) % 10} 2025`),
    ];
    for (const date of dates) {
      // A stand-in `ps` printing that date, ahead of the real one on PATH.
      writeFileSync(join(bin, "ps"), `#!/bin/sh\necho '${date}'\n`);
      chmodSync(join(bin, "ps"), 0o755);
      const pidFile = join(dir, "pid");
      const r = spawnSync("sh", ["-c", recordPidScript(pidFile, "")], { env: { ...process.env, SPEX_PROC: "ps", PATH: `${bin}:${process.env.PATH}` }, encoding: "utf8" });
      expect(r.stderr).toBe("");
      const seconds = lstartSeconds(date)!;
      expect(seconds).toBe(Date.parse(`${date.slice(4)} UTC`) / 1000);
      expect(readFileSync(pidFile, "utf8").trim().split(" ")[1]).toBe(epochStart(seconds));
    }
  });

  test("/proc and ps give every live process the same absolute start", () => {
    const pids = [1, process.pid, process.ppid, ...linuxBackend.listPids().slice(-5)];
    for (const pid of pids) {
      const viaProc = linuxBackend.info(pid);
      const viaPs = psBackend.info(pid);
      if (!viaProc || !viaPs) continue; // ended meanwhile
      expect(startForm(viaPs.start)).toBe("epoch");
      expect(linuxBackend.startIn(viaProc, "epoch")).toBe(viaPs.start);
      expect([viaPs.ppid, viaPs.pgid]).toEqual([viaProc.ppid, viaProc.pgid]);
    }
  });

  test("a start recorded by one backend is never taken for another process by the other", async () => {
    const viaProc = await launched({ SPEX_PROC: "" });
    const viaPs = await launched({ SPEX_PROC: "ps" });
    expect(startForm(viaProc.start)).toBe("ticks");
    expect(startForm(viaPs.start)).toBe("epoch");

    // Absolute starts: both backends prove the process, and both refuse a neighbouring second.
    for (const backend of [linuxBackend, psBackend]) {
      expect(judge(backend, viaPs.pid, viaPs.start, undefined)).toBe("same");
      expect(judge(backend, viaPs.pid, anotherStart(viaPs.start, 1), undefined)).toBe("other");
    }
    // Ticks since boot: /proc proves it (and refuses another boot); ps cannot tell, and says so.
    expect(judge(linuxBackend, viaProc.pid, viaProc.start, linuxBackend.boot())).toBe("same");
    expect(judge(linuxBackend, viaProc.pid, viaProc.start, "another-boot")).toBe("other");
    expect(judge(psBackend, viaProc.pid, viaProc.start, linuxBackend.boot())).toBe("unknown");
    // Ticks of one process against the other process (started later): /proc refuses it.
    expect(judge(linuxBackend, viaPs.pid, viaProc.start, linuxBackend.boot())).toBe("other");
    // Nothing recorded proves nothing.
    expect(judge(linuxBackend, viaProc.pid, "", undefined)).toBe("unknown");

    // Gone is gone, whatever was recorded and whoever asks.
    for (const p of started) p.kill("SIGKILL");
    await waitFor(() => linuxBackend.info(viaProc.pid) === undefined && linuxBackend.info(viaPs.pid) === undefined, "both to end");
    for (const backend of [linuxBackend, psBackend]) {
      expect(judge(backend, viaProc.pid, viaProc.start, undefined)).toBe("dead");
      expect(judge(backend, viaPs.pid, viaPs.start, undefined)).toBe("dead");
    }
  });

  test("without /proc the launch script still records: `ps` alone gives the agent's pid and a start both backends prove", async () => {
    const dir = scratch();
    // The template reads /proc only when it can: a shell whose /proc/$$/stat is unreadable takes the ps branch.
    const script = recordPidScript(join(dir, "agent.pid"), "exec sleep 1000").replace('[ -r "/proc/$$/stat" ]', '[ -r "/nonexistent/$$/stat" ]');
    const child = spawn("sh", ["-c", script], { stdio: "ignore" });
    started.push(child);
    const text = await waitFor(() => {
      try {
        return readFileSync(join(dir, "agent.pid"), "utf8");
      } catch {
        return undefined;
      }
    }, "the pid file");
    const [pid, start] = text.trim().split(" ");
    expect(Number(pid)).toBe(child.pid!);
    expect(judge(psBackend, child.pid!, start!, undefined)).toBe("same");
    expect(judge(linuxBackend, child.pid!, start!, undefined)).toBe("same");
  });
});

// `ls` of a fleet reads one process table for every row (probeLeafShown); a waiter in the same
// process then asks again at once. The shown look must not contradict what happened since.
describe("the shown look under ps", () => {
  afterEach(() => {
    delete process.env.SPEX_PS_TABLE_MS;
  });

  test("an agent SIGKILLed after the table was read shows dead at once, and one started after it shows alive", async () => {
    process.env.SPEX_PS_TABLE_MS = "600000"; // one table for the whole test, however slow the machine
    const before = spawn("sleep", ["1000"], { stdio: "ignore" });
    started.push(before);
    await waitFor(() => psBackend.info(before.pid!), "the first process to be listed");
    expect(psBackend.infoShown(before.pid!)).toBeDefined(); // the table is read now, holding it
    before.kill("SIGKILL");
    await new Promise((r) => before.on("exit", r));
    const after = spawn("sleep", ["1000"], { stdio: "ignore" });
    started.push(after);
    await waitFor(() => psBackend.info(after.pid!), "the second process to be listed");
    expect(judge(psBackend, before.pid!, "@0", undefined, "shown")).toBe("dead");
    expect(psBackend.infoShown(after.pid!)?.start).toBe(psBackend.info(after.pid!)!.start);
  });
});
