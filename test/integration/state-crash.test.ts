// kill -9 between a state change's record write and its timeline event
// (DESIGN.md §7): the record already says the new state, the timeline does
// not. The session's next state change appends the lost state first, so a
// reader of the timeline (wait, watch, the board's feed) still sees it.
import { afterEach, expect, test } from "bun:test";
import { copyFileSync, readFileSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox } from "../support/sandbox";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

function sessionDir(s: Sandbox, id: string): string {
  const [key] = readdirSync(join(s.home, "projects"));
  return join(s.home, "projects", key!, "sessions", id);
}

function timeline(s: Sandbox, id: string): Record<string, any>[] {
  const text = readFileSync(join(sessionDir(s, id), "timeline.ndjson"), "utf8");
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

test("a write killed between its temp file and the rename: once that file is an hour old and its writer gone, the next write there clears it, and no file a live writer may hold", () => {
  sb = sandbox();
  const id = JSON.parse(sb.spex(["session", "new", "--launcher", "shell", "--no-launch", "--json", "temp crash"]).stdout).session_id;
  const set = (state: string, env: Record<string, string> = {}) => sb.spex(["internal", "session-state", state, "--session", id], { env });
  expect(set("active").code).toBe(0);
  expect(set("parked", { SPEX_TEST_CRASH_AT: "temp-written" }).code).not.toBe(0);
  const dir = sessionDir(sb, id);
  const temps = () => readdirSync(dir).filter((n) => n.endsWith(".tmp")).sort();
  const [left] = temps();
  expect(left).toMatch(/^\.session\.json\.spex-\d+-[0-9a-f]+\.tmp$/);
  expect(JSON.parse(sb.spex(["session", "show", id, "--json"]).stdout).lifecycle).toBe("active");
  const hourAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
  const writer = /\.spex-(\d+)-/.exec(left!)![1];
  // Kept: one as young as a write under way, one whose writer's pid is alive, one not named as spex names them.
  const young = `.session.json.spex-${writer}-abcdef01.tmp`;
  copyFileSync(join(dir, left!), join(dir, young));
  const alive = `.session.json.spex-${process.pid}-beef.tmp`;
  const foreign = ".session.json.tmp";
  for (const name of [alive, foreign]) writeFileSync(join(dir, name), "{}");
  for (const name of [left!, alive, foreign]) utimesSync(join(dir, name), hourAgo, hourAgo);
  expect(set("idle").code).toBe(0);
  expect(temps()).toEqual([foreign, alive, young].sort());
});
