// The delivery queue without tmux: limits and their codes, the inbox marker,
// stale claims becoming held, revoked senders and closed targets dropping
// their debt, and notices coalescing per watched session.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type QueuedMessage,
  dropNotices,
  drainNow,
  eventsAfter,
  findMessage,
  inboxMarker,
  listPending,
  noticeText,
  revokeSender,
  sendMessage,
  typedText,
} from "../../lib/comms";
import { enqueue, saveMessage } from "../../lib/comms/queue";
import { type SessionRecord, emptyRecord } from "../../lib/record";
import { type ProjectStore, projectStore, sessionPaths } from "../../lib/store";
import { seedRecord } from "../support/records";
import { makeRepo, cleanEnv } from "../support/sandbox";
import { SpexError } from "../../lib/errors";

let dir: string;
let repo: string;
let store: ProjectStore;
let target: SessionRecord;
let sender: SessionRecord;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "spex-queue-"));
  repo = makeRepo(join(dir, "repo"), cleanEnv());
  store = projectStore(repo, join(dir, "home"));
  // Active and paneless: nothing is handed over, so what the queue decides is all we see.
  target = seedRecord(store.home, repo, { status: "active", prompt: "target" });
  sender = seedRecord(store.home, repo, { status: "idle", prompt: "sender", name: "orchestrator" });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof SpexError) return e.code;
    throw e;
  }
  return "accepted";
}

const send = (text: string, from: { kind: "session"; id: string } | { kind: "user" } = { kind: "user" }) =>
  sendMessage(store, { target: target.session_id, from, text, keys: [], deliver: false });

describe("limits", () => {
  test("a message over 8 KiB is refused with message_too_large and nothing is queued", async () => {
    expect(await refusal(send("x".repeat(8 * 1024 + 1)))).toBe("message_too_large");
    expect(listPending(store, target.session_id)).toEqual([]);
    expect(existsSync(sessionPaths(store, target.session_id).timeline)).toBe(false);
  });

  test("exactly 8 KiB is accepted", async () => {
    expect(await refusal(send("x".repeat(8 * 1024)))).toBe("accepted");
  });

  test("the queue depth limit refuses with queue_full", async () => {
    process.env.SPEX_QUEUE_DEPTH = "2";
    try {
      await send("one");
      await send("two");
      expect(await refusal(send("three"))).toBe("queue_full");
    } finally {
      delete process.env.SPEX_QUEUE_DEPTH;
    }
  });

  test("identical text from the same sender while the first is queued is refused with message_repeated", async () => {
    await send("please rebase");
    expect(await refusal(send("please rebase"))).toBe("message_repeated");
    // Another sender may say the same thing.
    expect(await refusal(send("please rebase", { kind: "session", id: sender.session_id }))).toBe("accepted");
  });
});

describe("queue bookkeeping", () => {
  test("a send appends message_in to the target and message_out to the sender, and ids are per target", async () => {
    const a = await send("hello", { kind: "session", id: sender.session_id });
    const b = await send("again", { kind: "session", id: sender.session_id });
    expect(a.messageId).toBe(`${target.session_id.slice(0, 8)}-1`);
    expect(b.messageId).toBe(`${target.session_id.slice(0, 8)}-2`);
    expect([a.queuePosition, b.queuePosition]).toEqual([1, 2]);
    expect(findMessage(store, a.messageId)?.from).toEqual({ kind: "session", id: sender.session_id, label: "orchestrator" });
    expect(eventsAfter(store, target.session_id, 0).map((e) => [e.seq, e.kind, "messageId" in e && e.messageId])).toEqual([
      [1, "message_in", a.messageId],
      [2, "message_in", b.messageId],
    ]);
    expect(eventsAfter(store, sender.session_id, 0).map((e) => e.kind === "message_out" && e.to)).toEqual([target.session_id, target.session_id]);
  });

  test("inbox.pending exists exactly while a message is queued", async () => {
    const marker = inboxMarker(store, target.session_id);
    expect(existsSync(marker)).toBe(false);
    const r = await send("hi");
    expect(existsSync(marker)).toBe(true);
    await dropAll();
    expect(existsSync(marker)).toBe(false);
    expect(findMessage(store, r.messageId)?.state).toBe("dropped");
  });

  async function dropAll(): Promise<void> {
    rmSync(sessionPaths(store, target.session_id).record);
    await drainNow(store, target.session_id);
  }

  test("messages to a session that was closed are dropped with the reason", async () => {
    const r = await send("anyone there?");
    await dropAll();
    const m = findMessage(store, r.messageId)!;
    expect(m.state).toBe("dropped");
    expect(m.reason).toMatch(/gone/);
  });

  test("a revoked sender is refused and its unhanded messages are dropped", async () => {
    const r = await send("from a doomed session", { kind: "session", id: sender.session_id });
    revokeSender(store, sender.session_id);
    expect(await refusal(send("too late", { kind: "session", id: sender.session_id }))).toBe("sender_revoked");
    await drainNow(store, target.session_id);
    expect(findMessage(store, r.messageId)).toMatchObject({ state: "dropped", reason: expect.stringMatching(/sender was closed/) });
  });

  test("a claim whose owner died becomes held on the next drain and is never handed over again", async () => {
    const r = await send("claimed then orphaned");
    const child = spawnSync("sh", ["-c", "echo $$"], { encoding: "utf8" });
    const deadPid = Number(child.stdout.trim());
    const m = findMessage(store, r.messageId)!;
    saveMessage(store, { ...m, state: "claimed", claim: { pid: deadPid, start: "1", boot: "b", at: new Date().toISOString(), seq: 0, nonce: "n" } });
    const report = await drainNow(store, target.session_id);
    expect(report.outcomes).toEqual([{ messageId: r.messageId, state: "held", reason: expect.stringMatching(/died before pressing Enter/) }]);
    expect(findMessage(store, r.messageId)!.state).toBe("held");
    expect(listPending(store, target.session_id)).toEqual([]);
  });

  test("a notice about a session replaces the one still queued instead of piling up", async () => {
    const about = sender.session_id;
    const notice = (status: string): Promise<unknown> =>
      enqueue(store, target.session_id, { from: { kind: "watch", id: about, label: "x" }, text: `now ${status}`, keys: [], about }, () => 0, {
        replaces: (m: QueuedMessage) => m.from.kind === "watch" && m.about === about,
      });
    await notice("idle");
    await notice("asking");
    const pending = listPending(store, target.session_id);
    expect(pending.map((m) => m.text)).toEqual(["now asking"]);
    expect(await dropNotices(store, target.session_id, about, "unwatched")).toBe(1);
    expect(listPending(store, target.session_id)).toEqual([]);
  });
});

describe("what is typed", () => {
  const base = { id: "x-1", target: "t", n: 1, keys: [], state: "queued" as const, reason: "", createdAt: "", updatedAt: "", timelineSeq: 1 };

  test("a session sender's message carries a one-line envelope naming how to reply", () => {
    const typed = typedText({ ...base, from: { kind: "session", id: "3f2a9c1e-0000-4000-8000-000000000000", label: "fixer\nbad" }, text: "line 1\nline 2" });
    expect(typed.split("\n")).toEqual(['[message from session fixer bad (3f2a9c1e); reply with: spex session send 3f2a9c1e "..."]', "line 1", "line 2"]);
  });

  test("the user's own text is typed as given, behind the prompt seam", () => {
    expect(typedText({ ...base, from: { kind: "user" }, text: "--help me" })).toBe(" --help me");
  });

  test("a notice names the session, its state and how to look closer", () => {
    const r = { ...emptyRecord("3f2a9c1e-0000-4000-8000-000000000000"), title: "fix auth", status: "awaiting" as const, proposal: "merge" as const, note: "tests pass" };
    expect(noticeText(r)).toBe("[spex watch] session fix auth (3f2a9c1e) is now awaiting, proposing merge: tests pass (details: spex session show 3f2a9c1e)");
  });
});
