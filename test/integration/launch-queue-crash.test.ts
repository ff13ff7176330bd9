// A freed slot reaches the launch queue whoever dies (issue 21 item 4): the
// process that frees a slot and claims the oldest queued session may be
// killed at any step of that launch, and a later reader (ls, new, serve, the
// drain a hook starts) still launches the session, exactly once. The kills
// are deterministic (SPEX_TEST_CRASH_AT, lib/faults.ts), plus a few rounds
// of a kill -9 at a random moment of the stop.
import { afterEach, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SPEX_BIN, type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { serve } from "./backend-support";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

/** A launcher that logs each launch of a session (its id), then stays up as the agent. */
function countingFleet(s: Sandbox, maxActive: number): string {
  const log = join(s.dir, "launches.log");
  const command = `sh -c 'printf "%s\\n" "$SPEX_SESSION_ID" >> ${log}; exec sleep 600' counted`;
  writeFileSync(join(s.repo, "spexcode.local.json"), JSON.stringify({ sessions: { maxActive }, launchers: { counted: { harness: "shell", command } } }));
  return log;
}

function launchesOf(log: string, id: string): number {
  return existsSync(log) ? readFileSync(log, "utf8").split("\n").filter((l) => l === id).length : 0;
}

interface Row {
  id: string;
  display: string;
}

function rows(s: Sandbox): Row[] {
  const r = s.spex(["session", "ls", "--json"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

function create(s: Sandbox, prompt: string) {
  const r = s.spex(["session", "new", "--launcher", "counted", "--json", prompt]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

function queueMarker(s: Sandbox): string {
  const projects = join(s.home, "projects");
  return join(projects, readdirSync(projects)[0]!, "launch-queue.pending");
}

/** A running session holding the only slot and one queued behind it. */
function fullFleet(s: Sandbox): { log: string; running: string; queued: string } {
  const log = countingFleet(s, 1);
  const running = create(s, "holds the only slot").session_id as string;
  const queued = create(s, "waits for it");
  expect(queued.status).toBe("queued");
  return { log, running, queued: queued.session_id };
}

/** `stop` of the running session, killed at `step` of the launch it starts for the queue. */
function stopKilledAt(s: Sandbox, running: string, step: string): void {
  const r = s.spex(["session", "stop", running, "--json"], { env: { SPEX_TEST_CRASH_AT: step } });
  // SIGKILL: no exit code, no output.
  expect({ code: r.code, stdout: r.stdout }).toEqual({ code: -1, stdout: "" });
}

const READERS: { name: string; read: (s: Sandbox, launched: () => boolean) => Promise<void> }[] = [
  { name: "ls", read: async (s) => void rows(s) },
  {
    name: "new",
    read: async (s) => {
      const r = s.spex(["session", "new", "--launcher", "counted", "--json", "comes later"]);
      expect(r.code).toBe(0);
      // The later create waits behind the one whose slot was freed; it does not take the slot.
      expect(JSON.parse(r.stdout).status).toBe("queued");
    },
  },
  {
    // What a hook starts when its agent exits (lib/hooks/handle.ts): only while the queue marker says to look.
    name: "the drain a hook starts",
    read: async (s) => {
      expect(existsSync(queueMarker(s))).toBe(true);
      expect(s.spex(["internal", "launch-queue"]).code).toBe(0);
    },
  },
  {
    name: "serve",
    read: async (s, launched) => {
      const be = await serve(s);
      try {
        await waitFor(launched, "serve to drain the queue", 30000);
      } finally {
        await be.stop();
      }
    },
  },
];

describe("a freed slot reaches the queue whoever dies", () => {
  for (const reader of READERS) {
    test(`stop killed right after it claimed the slot: ${reader.name} launches the queued session, once`, async () => {
      sb = sandbox();
      const { log, running, queued } = fullFleet(sb);
      stopKilledAt(sb, running, "queue-claimed");
      expect(launchesOf(log, queued)).toBe(0);
      await reader.read(sb, () => launchesOf(log, queued) === 1);
      await waitFor(() => launchesOf(log, queued) === 1, "the queued session to launch", 30000);
      expect(rows(sb).find((r) => r.id === queued)?.display).not.toBe("queued");
      // Later readers find nothing more to do: it launched exactly once.
      rows(sb);
      expect(sb.spex(["internal", "launch-queue"]).code).toBe(0);
      expect(launchesOf(log, queued)).toBe(1);
      expect(launchesOf(log, running)).toBe(1);
    }, 90000);
  }

  test("stop killed after the launch script was written but before its window opened: the next ls launches it, once", async () => {
    sb = sandbox();
    const { log, running, queued } = fullFleet(sb);
    stopKilledAt(sb, running, "launch-window");
    expect(launchesOf(log, queued)).toBe(0);
    rows(sb);
    await waitFor(() => launchesOf(log, queued) === 1, "the queued session to launch", 30000);
    rows(sb);
    expect(launchesOf(log, queued)).toBe(1);
  }, 90000);

  test("stop killed once the queued session's window opened: it runs, and no reader launches it again", async () => {
    sb = sandbox();
    const { log, running, queued } = fullFleet(sb);
    stopKilledAt(sb, running, "queue-launched");
    await waitFor(() => launchesOf(log, queued) === 1, "the queued session to launch", 30000);
    await waitFor(() => rows(sb).find((r) => r.id === queued)?.display === "idle" || undefined, "the session to run", 30000);
    expect(sb.spex(["internal", "launch-queue"]).code).toBe(0);
    expect(launchesOf(log, queued)).toBe(1);
  }, 90000);

  test("five rounds of kill -9 at a random moment of the stop: every queued session launches exactly once", async () => {
    sb = sandbox();
    let { log, running, queued } = fullFleet(sb);
    for (let round = 0; round < 5; round++) {
      const stop = spawn(SPEX_BIN, ["session", "stop", running], { cwd: sb.repo, env: sb.env, stdio: "ignore" });
      const exited = new Promise((resolve) => stop.on("exit", resolve));
      setTimeout(() => stop.kill("SIGKILL"), Math.floor(Math.random() * 400));
      await exited;
      // The kill may have come before the stop did its work: a second stop finishes it, and frees the slot if it was not.
      expect(sb.spex(["session", "stop", running]).code).toBe(0);
      await waitFor(() => {
        rows(sb);
        return launchesOf(log, queued) === 1;
      }, `round ${round}: the queued session to launch`, 30000);
      running = queued;
      queued = create(sb, `round ${round + 1}`).session_id;
    }
    rows(sb);
    const all = readFileSync(log, "utf8").split("\n").filter(Boolean);
    expect(all.length).toBe(new Set(all).size);
  }, 240000);
});
