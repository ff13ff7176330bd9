// Forty processes writing one record at once (DESIGN.md §1.1, §1.4, §1.11):
// sends, renames, notes and state writes all land, nothing twice, and the
// record, the timeline and the locks are whole afterwards.
import { afterEach, expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox } from "../support/sandbox";
import { spexAsync } from "./backend-support";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

test("40 concurrent writers on one record: every send queued exactly once, the record and every timeline line whole, no lock left", async () => {
  sb = sandbox();
  const id = JSON.parse(sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "busy"]).stdout).session_id;
  const runs: Promise<{ code: number | null; stderr: string }>[] = [];
  for (let i = 0; i < 10; i++) {
    runs.push(spexAsync(sb, ["session", "send", "--queue-only", id, `message ${i}`]));
    runs.push(spexAsync(sb, ["session", "rename", id, `name-${i}`]));
    runs.push(spexAsync(sb, ["internal", "session-state", "active", "--session", id, "--note", `note ${i}`]));
    runs.push(spexAsync(sb, ["internal", "session-state", "idle", "--session", id]));
  }
  const results = await Promise.all(runs);
  expect(results.filter((r) => r.code !== 0).map((r) => r.stderr)).toEqual([]);

  const [key] = readdirSync(join(sb.home, "projects"));
  const project = join(sb.home, "projects", key!);
  const record = JSON.parse(readFileSync(join(project, "sessions", id, "session.json"), "utf8"));
  expect(record.name).toMatch(/^name-\d$/);
  const text = readFileSync(join(project, "sessions", id, "timeline.ndjson"), "utf8");
  expect(text.endsWith("\n")).toBe(true);
  const events = text.slice(0, -1).split("\n").map((line) => JSON.parse(line));
  const seqs = events.map((e) => e.seq);
  expect(new Set(seqs).size).toBe(seqs.length);
  expect(events.filter((e) => e.kind === "message_in").map((e) => e.text).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `message ${i}`));
  const pending = readdirSync(join(project, "queue", id, "pending")).map((f) => JSON.parse(readFileSync(join(project, "queue", id, "pending", f), "utf8")).text);
  expect(pending.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `message ${i}`));
  expect(readdirSync(join(project, "locks"))).toEqual([]);
}, 120000);
