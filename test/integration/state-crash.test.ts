// kill -9 between a state change's record write and its timeline event
// (DESIGN.md §7): the record already says the new state, the timeline does
// not. The session's next state change appends the lost state first, so a
// reader of the timeline (wait, watch, the board's feed) still sees it.
import { afterEach, expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox } from "../support/sandbox";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

function timeline(s: Sandbox, id: string): Record<string, any>[] {
  const [key] = readdirSync(join(s.home, "projects"));
  const text = readFileSync(join(s.home, "projects", key!, "sessions", id, "timeline.ndjson"), "utf8");
  return text.trim().split("\n").map((l) => JSON.parse(l));
}

const states = (events: Record<string, any>[]) => events.filter((e) => e.kind === "state").map((e) => [e.prev, e.status, e.note, e.recovered ?? false]);

test("a state write killed before its timeline event: the next state change appends the lost state first, and prev chains", () => {
  sb = sandbox();
  const made = JSON.parse(sb.spex(["session", "new", "--launcher", "shell", "--no-launch", "--json", "state crash"]).stdout);
  const id = made.session_id;
  const set = (state: string, extra: string[] = [], env: Record<string, string> = {}) =>
    sb.spex(["internal", "session-state", state, "--session", id, ...extra], { env });
  expect(set("active").code).toBe(0);
  const killed = set("parked", ["--note", "waiting for review"], { SPEX_TEST_CRASH_AT: "record-written" });
  expect(killed.code).not.toBe(0);
  const row = JSON.parse(sb.spex(["session", "show", id, "--json"]).stdout);
  expect([row.lifecycle, row.note]).toEqual(["parked", "waiting for review"]);
  expect(states(timeline(sb, id)).map((s) => s[1])).not.toContain("parked");

  expect(set("active", ["--new-turn"]).code).toBe(0);
  const events = timeline(sb, id);
  expect(states(events).slice(-3)).toEqual([
    [expect.any(String), "active", "", false],
    ["active", "parked", "waiting for review", true],
    ["parked", "active", "", false],
  ]);
  const seqs = events.map((e) => e.seq);
  expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  expect(new Set(seqs).size).toBe(seqs.length);
});
