// The leaf guard against real processes: dead, owned (TERM, then KILL), and a
// live pid of another identity that must never be signalled.
import { afterEach, describe, expect, test } from "bun:test";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { processIdentity } from "../../lib/proc";
import { waitFor } from "../support/sandbox";
import { stopLeaf } from "../../lib/teardown";
import { anotherStart } from "../support/processes";

const started: ChildProcess[] = [];
afterEach(() => {
  for (const c of started.splice(0)) c.kill("SIGKILL");
  delete process.env.SPEX_STOP_GRACE_MS;
});

/** Start `sh -c script` and wait until it has exec'd into sleep (its traps are set by then). */
async function start(script: string): Promise<{ pid: number; start: string }> {
  const child = spawn("sh", ["-c", script], { stdio: "ignore" });
  started.push(child);
  const pid = child.pid!;
  await waitFor(() => readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith("sleep\0"), "the child to exec sleep", 5000, 5);
  return { pid, start: processIdentity(pid)!.start };
}

describe("stopLeaf", () => {
  test("no recorded pid and a pid that names no process are left alone", () => {
    expect(stopLeaf("s", { pid: 0, start: "", source: "none" })).toBe("none");
    const gone = Number(spawnSync("sh", ["-c", "echo $$"], { encoding: "utf8" }).stdout.trim());
    expect(stopLeaf("s", { pid: gone, start: "1", source: "record" })).toBe("dead");
  });

  test("an owned leaf is terminated", async () => {
    const p = await start("exec sleep 1000");
    expect(stopLeaf("s", { ...p, source: "record" })).toBe("terminated");
    expect(processIdentity(p.pid)).toBeUndefined();
  });

  test("an owned leaf that ignores TERM is killed after the grace period", async () => {
    process.env.SPEX_STOP_GRACE_MS = "100";
    const p = await start("trap '' TERM; exec sleep 1000");
    expect(stopLeaf("s", { ...p, source: "record" })).toBe("killed");
    expect(processIdentity(p.pid)).toBeUndefined();
  });

  test("a live pid with another start identity is refused leaf_unprovable and stays alive", async () => {
    const p = await start("exec sleep 1000");
    expect(() => stopLeaf("s", { pid: p.pid, start: anotherStart(p.start, 1), source: "record" })).toThrow(expect.objectContaining({ code: "leaf_unprovable" }));
    expect(() => stopLeaf("s", { pid: p.pid, start: "", source: "agent.pid" })).toThrow(expect.objectContaining({ code: "leaf_unprovable" }));
    expect(processIdentity(p.pid)?.start).toBe(p.start);
  });
});
