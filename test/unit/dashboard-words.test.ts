// The dashboard says what happened in words (issue 17): a question, a
// message and its delivery, a merge — not field names.
import { describe, expect, test } from "bun:test";
import { eventWords, firstPort, portsText, rowNote, statusTags } from "../../web/words";
import { sessionRow } from "../../lib/board/ui/test-rows";

const names = (id: string) => ({ "1111": "ops lead" })[id] ?? id.slice(0, 4);
const at = { seq: 1, at: "2026-12-01T00:00:00Z" };
const state = (status: string, extra: Record<string, unknown> = {}) =>
  ({ ...at, kind: "state", status, prev: "active", proposal: "", note: "", stopped: false, archived: false, ...extra }) as const;

describe("eventWords", () => {
  test("states read as what the session did", () => {
    expect(eventWords(state("asking", { note: "which db?" }), names)).toBe("asked: which db?");
    expect(eventWords(state("parked", { note: "waiting for CI" }), names)).toBe("parked: waiting for CI");
    expect(eventWords(state("awaiting", { proposal: "merge", note: "tests pass" }), names)).toBe("finished and proposes merging: tests pass");
    expect(eventWords(state("idle"), names)).toBe("finished its turn");
    expect(eventWords(state("active", { prev: "asking" }), names)).toBe("got its answer and went on working");
    expect(eventWords(state("idle", { prev: "idle", stopped: true }), names)).toBe("is idle, stopped");
  });

  test("messages name who sent them and how far they got", () => {
    const msg = { ...at, kind: "message_in", messageId: "abcd1234-1", text: "use postgres" } as const;
    expect(eventWords({ ...msg, from: { kind: "name", name: "ops" }, delivery: "delivered" }, names)).toBe("message from ops delivered: use postgres");
    expect(eventWords({ ...msg, from: { kind: "user" }, delivery: "queued" }, names)).toBe("message from you queued: use postgres");
    expect(eventWords({ ...at, kind: "message_out", messageId: "x-1", to: "1111" }, names)).toBe("sent a message to ops lead");
  });

  test("a merge says where it landed and how", () => {
    const e = { ...at, kind: "merge", into: "main", landing: "squash", branch: "spex/x", branchHead: "a", before: "b", after: "c", commits: 3, workCommit: "" } as const;
    expect(eventWords(e, names)).toBe("merged into main (squash, 3 commits)");
  });
});

describe("rowNote", () => {
  test("an asking session shows its question; a proposal its note", () => {
    expect(rowNote({ display: "asking", lifecycle: "asking", proposal: "", note: "which db?" })).toBe("asks: which db?");
    expect(rowNote({ display: "review", lifecycle: "awaiting", proposal: "merge", note: "ready" })).toBe("proposes merge: ready");
    expect(rowNote({ display: "working", lifecycle: "active", proposal: "", note: "" })).toBe("");
  });
});

describe("statusTags", () => {
  test("an offline row says why its agent is gone, beside the status badge, as ls does (issue 27)", () => {
    expect(statusTags(sessionRow({ display: "idle", liveness: "offline", offlineReason: "machine_restarted" }))).toEqual(["machine_restarted"]);
    expect(statusTags(sessionRow({ display: "review", liveness: "offline", offlineReason: "killed", archived: true }))).toEqual(["offline", "killed", "archived"]);
    expect(statusTags(sessionRow({ display: "idle", liveness: "online" }))).toEqual([]);
  });
});

test("the ports column: a running session's block as SPEX_PORTS says it, nothing without one, sorted by its first port (issue 26 item 3)", () => {
  expect(portsText({ ports: "20010-20019" })).toBe("20010-20019");
  expect(portsText({ ports: null })).toBe("");
  expect(portsText({})).toBe("");
  expect(firstPort({ ports: "20010-20019" })).toBe(20010);
  expect(firstPort({ ports: null })).toBe(0);
});
