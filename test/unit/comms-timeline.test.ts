// The timeline file: sequences only grow, readers resume after a cursor, and a
// line torn by a crashed writer is skipped and sealed, never fatal.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { appendEvent, eventsAfter, lastSeq, lastStateEvent } from "../../lib/comms";
import { type ProjectStore, projectStore, sessionPaths } from "../../lib/store";

let dir: string;
let store: ProjectStore;
const id = "0f0f0f0f-1111-4222-8333-444444444444";

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "spex-timeline-"));
  store = projectStore("/repo", dir);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const state = (status: "idle" | "active") => ({ kind: "state" as const, status, prev: status === "idle" ? ("active" as const) : ("idle" as const), proposal: "" as const, note: "", stopped: false, archived: false });

describe("timeline", () => {
  test("sequences start at 1 and grow by one per event", () => {
    expect(lastSeq(store, id)).toBe(0);
    const seqs = [appendEvent(store, id, state("active")), appendEvent(store, id, { kind: "message_out", messageId: "0f0f0f0f-1", to: "x" }), appendEvent(store, id, state("idle"))].map((e) => e.seq);
    expect(seqs).toEqual([1, 2, 3]);
    expect(lastSeq(store, id)).toBe(3);
  });

  test("eventsAfter returns exactly the events past the cursor, oldest first", () => {
    for (let i = 0; i < 5; i++) appendEvent(store, id, state(i % 2 ? "idle" : "active"));
    expect(eventsAfter(store, id, 3).map((e) => e.seq)).toEqual([4, 5]);
    expect(eventsAfter(store, id, 5)).toEqual([]);
    expect(eventsAfter(store, id, 0).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  test("a timeline longer than one read chunk is read whole from an early cursor", () => {
    const note = "n".repeat(3000);
    for (let i = 0; i < 60; i++) appendEvent(store, id, { ...state("idle"), note: `${i} ${note}` });
    const evs = eventsAfter(store, id, 2);
    expect(evs.map((e) => e.seq)).toEqual(Array.from({ length: 58 }, (_, i) => i + 3));
    expect(evs[0]!.kind === "state" && evs[0]!.note.startsWith("2 ")).toBe(true);
    expect(lastSeq(store, id)).toBe(60);
  });

  test("a torn last line is skipped by readers and sealed by the next append", () => {
    appendEvent(store, id, state("active"));
    appendFileSync(sessionPaths(store, id).timeline, '{"seq":2,"at":"x","kind":"sta');
    expect(lastSeq(store, id)).toBe(1);
    const next = appendEvent(store, id, state("idle"));
    expect(next.seq).toBe(2);
    const lines = readFileSync(sessionPaths(store, id).timeline, "utf8").split("\n");
    expect(JSON.parse(lines[2]!).seq).toBe(2);
    expect(eventsAfter(store, id, 0).map((e) => e.seq)).toEqual([1, 2]);
  });

  test("lastStateEvent skips message events", () => {
    appendEvent(store, id, state("idle"));
    appendEvent(store, id, { kind: "message_in", messageId: "0f0f0f0f-1", from: { kind: "user" }, text: "hi" });
    expect(lastStateEvent(store, id)?.seq).toBe(1);
  });

  test("notes with newlines, quotes and NULs round-trip through one line", () => {
    const note = 'a "quoted"\nline\u0000 with \\ and ✓';
    appendEvent(store, id, { ...state("idle"), note });
    const e = eventsAfter(store, id, 0)[0]!;
    expect(e.kind === "state" && e.note).toBe(note);
    expect(readFileSync(sessionPaths(store, id).timeline, "utf8").split("\n").filter(Boolean)).toHaveLength(1);
  });
});
