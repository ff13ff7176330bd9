// Fan-out of live and bulk, pure: which machines a call asks, in what order
// the answers come and run, and the merged sessions.bulk.v1 envelope.
import { describe, expect, test } from "bun:test";
import type { LiveRow } from "../../lib/live";
import { type BulkEnvelope, type BulkRequest, planBulk } from "../../lib/live/bulk";
import { SpexError } from "../../lib/errors";
import { type FleetTarget, type Machine, addressArgv, askFleet, fleetTargets, mergeEnvelopes } from "../../lib/machines";
import { contractErrors, isBulkEnvelope } from "../support/contract";
import { wordsIn } from "../support/shell-words";

const m = (name: string): Machine => ({ name, destination: name, port: null, repo: "/r", addedAt: "" });
const machines = [m("box"), m("gpu")];

describe("fleetTargets", () => {
  test("--all-machines is this machine first, then every configured one", () => {
    expect(fleetTargets({ allMachines: true }, "here", machines)!.map((t) => [t.name, t.kind])).toEqual([["here", "local"], ["box", "remote"], ["gpu", "remote"]]);
  });

  test("--machine with no configured machine keeps the one-machine path (undefined), so its old meaning stands", () => {
    expect(fleetTargets({ machine: "here", allMachines: false }, "here", machines)).toBeUndefined();
    expect(fleetTargets({ machine: "not-this-machine", allMachines: false }, "here", machines)).toBeUndefined();
    expect(fleetTargets({ allMachines: false }, "here", machines)).toBeUndefined();
  });

  test("--machine a,b names machines in the order given, ignoring case; an unknown name is kept to be answered by an error", () => {
    expect(fleetTargets({ machine: "GPU,here,nope,gpu", allMachines: false }, "here", machines)!.map((t) => [t.name, t.kind])).toEqual([["gpu", "remote"], ["here", "local"], ["nope", "unknown"]]);
  });
});

describe("askFleet", () => {
  const targets: FleetTarget[] = [{ name: "here", kind: "local" }, { name: "box", kind: "remote", machine: machines[0]! }, { name: "gpu", kind: "remote", machine: machines[1]! }, { name: "nope", kind: "unknown" }];
  const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

  test("in parallel the remote calls start before the local work; answers keep target order; failures are entries", async () => {
    const log: string[] = [];
    const answers = await askFleet(targets, () => {
      log.push("local");
      return "L";
    }, async (x) => {
      log.push(`start ${x.name}`);
      await delay(x.name === "box" ? 30 : 5);
      if (x.name === "gpu") throw new SpexError("machine_unreachable", "gpu did not answer");
      log.push(`end ${x.name}`);
      return x.name;
    });
    expect(log.slice(0, 3)).toEqual(["start box", "start gpu", "local"]);
    expect(answers.map((a) => [a.target.name, a.value ?? a.error!.error.code])).toEqual([["here", "L"], ["box", "box"], ["gpu", "machine_unreachable"], ["nope", "machine_unknown"]]);
  });

  test("in sequence each machine finishes before the next starts", async () => {
    const log: string[] = [];
    await askFleet(targets.slice(0, 3), () => void log.push("local"), async (x) => {
      log.push(`start ${x.name}`);
      await delay(x.name === "box" ? 30 : 5);
      log.push(`end ${x.name}`);
    }, true);
    expect(log).toEqual(["local", "start box", "end box", "start gpu", "end gpu"]);
  });
});

function row(machine: string, n: number, fields: Partial<LiveRow> = {}): LiveRow {
  return {
    target: `s${n}:0.0`, session: `s${n}`, windowIndex: "0", paneIndex: "0", paneId: `%${n}`, command: "claude", cwd: "/p", projectPath: "/p",
    projectSlug: "p", machine, title: "", status: "idle", statusReason: "t", paneDead: false, paneActive: true, lastVisibleLine: "> ",
    isOpenSession: true, socket: "spex", sessionId: `0000000${n}-aaaa-4bbb-8ccc-dddddddddddd`, harness: "claude", statusRule: "governed.lifecycle", ...fields,
  };
}

const request = (over: Partial<BulkRequest> = {}): BulkRequest => ({
  action: "stop", dryRun: true, yes: false, queue: true, concurrency: 2, jitterMs: 0, openOnly: true, statuses: ["idle"], project: null, machine: "here,box,gpu",
  limits: { maxActiveAgents: 12, maxLoad1: null, maxLoadPerCore: 1.5 }, ...over,
});

function envelope(machine: string, rows: LiveRow[], load1: number): BulkEnvelope {
  return planBulk({ request: request({ machine: null }), observedAt: new Date().toISOString(), candidates: rows, selected: rows, load: { load1, cpuCount: 2 }, executionAvailable: true, screenOf: () => "", findingsOf: () => [], random: () => 0 });
}

describe("mergeEnvelopes", () => {
  test("one contract envelope: entries marked and addressed by machine, sums, reasons named, the busiest load, one refused entry per silent machine", () => {
    const here = envelope("here", [row("here", 1)], 0.2);
    const box = envelope("box", [row("box", 2), row("box", 3)], 2);
    const big = envelope("big", [row("big", 4)], 3.8);
    const merged = mergeEnvelopes(request(), "2026-12-01T00:00:00.000Z", [
      { target: { name: "here", kind: "local" }, value: here },
      { target: { name: "box", kind: "remote", machine: machines[0]! }, value: box },
      { target: { name: "big", kind: "remote", machine: m("big") }, value: big },
      { target: { name: "gpu", kind: "remote", machine: machines[1]! }, error: { machine: "gpu", error: { code: "machine_unreachable", message: "machine gpu (gpu) did not answer: Connection refused", hint: "h" } } },
    ]);
    expect(contractErrors(isBulkEnvelope, merged)).toEqual([]);
    // big's own guard refuses its mutation (load per core 1.9): each machine plans under its own guard.
    expect(merged.entries.map((e) => [e.machine, e.decision])).toEqual([["here", "planned"], ["box", "planned"], ["box", "planned"], ["big", "refused"], ["gpu", "refused"]]);
    expect(merged.entries[0]!.argv).toEqual(["spex", "session", "stop", row("here", 1).sessionId!]);
    expect(merged.entries[1]!.argv).toEqual(["spex", "session", "stop", "--machine", "box", "--repo", "/p", row("box", 2).sessionId!]);
    expect(merged.entries[1]!.commandPreview).toBe(merged.entries[1]!.argv!.join(" ")); // plain words print bare
    expect(merged.summary).toMatchObject({ selected: 4, planned: 3, refused: 2 });
    expect(merged.guard.ok).toBe(false);
    expect(merged.guard.reasons).toEqual(["big: load per core 1.9 exceeds 1.5 (--max-load-per-core)"]);
    expect(merged.guard.hints).toMatchObject({ load1: 3.8, cpuCount: 2, loadPerCore: 1.9, selectedMachines: ["big", "box", "here"], selectedMachineCount: 3 });
    expect(merged.filters.machine).toBe("here,box,gpu");
    expect(merged.machines.map((x) => [x.machine, x.ok, x.error?.code ?? null])).toEqual([["here", true, null], ["box", true, null], ["big", true, null], ["gpu", false, "machine_unreachable"]]);
  });
});

test("addressArgv puts --machine and --repo right after the verb", () => {
  expect(addressArgv(["spex", "session", "resume", "--force", "id"], "box", "/srv/a b")).toEqual(["spex", "session", "resume", "--machine", "box", "--repo", "/srv/a b", "--force", "id"]);
  expect(addressArgv(null, "box", "/p")).toBeNull();
});

test("a preview names the command a person would paste: a remote project's folder with shell syntax in it stays one word", () => {
  const folder = "/srv/my app$(touch${IFS}/nonexistent-dir/ran);`id`";
  const box = envelope("box", [row("box", 5, { projectPath: folder })], 0.2);
  const merged = mergeEnvelopes(request({ machine: "box" }), "2026-12-01T00:00:00.000Z", [{ target: { name: "box", kind: "remote", machine: machines[0]! }, value: box }]);
  const entry = merged.entries[0]!;
  expect(entry.argv).toEqual(["spex", "session", "stop", "--machine", "box", "--repo", folder, row("box", 5).sessionId!]);
  // Read back by sh, the preview gives exactly the argv (and runs nothing: the touch would fail aloud on stderr).
  expect(wordsIn("sh", entry.commandPreview!)).toEqual(entry.argv!);
});
