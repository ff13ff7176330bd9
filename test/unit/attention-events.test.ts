// Which transitions notify (lib/attention/events) and how notify entries are read (config).
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emptyRecord, type SessionRecord } from "../../lib/record";
import { eventOfChange, loadAttentionConfig, sinksFor } from "../../lib/attention";

const ID = "11111111-2222-4333-8444-555555555555";
const rec = (fields: Partial<SessionRecord>): SessionRecord => ({ ...emptyRecord(ID), ...fields });
const change = (b: Partial<SessionRecord>, a: Partial<SessionRecord>, reason = "state") => eventOfChange({ beforeView: rec(b), afterView: rec(a), reason });

describe("eventOfChange", () => {
  test("each transition makes its one event", () => {
    expect(change({ status: "active" }, { status: "asking", note: "db?" })).toBe("asking");
    expect(change({ status: "asking", note: "db?" }, { status: "asking", note: "and the port?" })).toBe("asking");
    expect(change({ status: "active" }, { status: "error", note: "server_error" })).toBe("error");
    expect(change({ status: "active" }, { status: "awaiting", proposal: "merge" })).toBe("review");
    expect(change({ status: "active" }, { status: "awaiting", proposal: "close" })).toBe("done");
    expect(change({ status: "active" }, { status: "idle" })).toBe("idle");
    expect(change({ status: "active" }, { status: "parked", note: "blocked" })).toBe("parked");
    expect(change({ status: "active" }, { status: "error", stall: "rate_limited" })).toBe("rate_limited");
    expect(change({ status: "idle" }, { status: "idle", stopped: true })).toBe("died");
  });

  test("what is not a transition a person waits for makes none", () => {
    expect(change({ status: "idle" }, { status: "active" })).toBeUndefined();
    expect(change({ status: "queued" }, { status: "idle" })).toBeUndefined();
    expect(change({ status: "error" }, { status: "error", note: "again" })).toBeUndefined();
    expect(change({ status: "error", stall: "rate_limited" }, { status: "error", stall: "rate_limited", note: "x" })).toBeUndefined();
    // spex stopping or archiving it is the user's own doing.
    expect(change({ status: "idle" }, { status: "idle", stopped: true }, "stop")).toBeUndefined();
    expect(change({ status: "idle" }, { status: "idle", archived: true }, "archive")).toBeUndefined();
    expect(change({ status: "idle" }, { status: "idle", name: "renamed" }, "rename")).toBeUndefined();
    // Parked by its budget: the budget check sends the one notification, with its figures.
    expect(change({ status: "idle" }, { status: "parked", note: "budget_exceeded" })).toBeUndefined();
  });
});

describe("notify configuration", () => {
  let dir = "";
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("sinks add up across the user's and the project's files; bare built-ins hear what needs a person", () => {
    dir = mkdtempSync(join(tmpdir(), "spex-attn-"));
    const home = join(dir, "home");
    const root = join(dir, "repo");
    require("node:fs").mkdirSync(home);
    require("node:fs").mkdirSync(root);
    writeFileSync(join(home, "config.json"), JSON.stringify({ notify: ["desktop"] }));
    writeFileSync(join(root, "spexcode.json"), JSON.stringify({ notify: [{ on: ["idle"], command: ["prog", "a b"] }, { on: ["*"], webhook: "http://127.0.0.1:1/x" }] }));
    writeFileSync(join(root, "spexcode.local.json"), JSON.stringify({ notify: [{ on: ["review"], builtin: "tmux" }] }));
    const c = loadAttentionConfig(home, root);
    expect(c.sinks.map((s) => s.kind)).toEqual(["desktop", "command", "webhook", "tmux"]);
    expect(c.sinks[1]!.argv).toEqual(["prog", "a b"]);
    expect(sinksFor(c, "idle").map((s) => s.kind)).toEqual(["command", "webhook"]);
    expect(sinksFor(c, "asking").map((s) => s.kind)).toEqual(["desktop", "webhook"]);
    expect(sinksFor(c, "review").map((s) => s.kind)).toEqual(["desktop", "webhook", "tmux"]);
  });

  test("a malformed entry is config_invalid naming its file", () => {
    dir = mkdtempSync(join(tmpdir(), "spex-attn-"));
    writeFileSync(join(dir, "spexcode.json"), JSON.stringify({ notify: [{ on: ["nap"], command: ["x"] }] }));
    expect(() => loadAttentionConfig(join(dir, "nohome"), dir)).toThrow(/spexcode.json: unknown event nap/);
    writeFileSync(join(dir, "spexcode.json"), JSON.stringify({ notify: [{ webhook: "file:///etc/passwd" }] }));
    expect(() => loadAttentionConfig(join(dir, "nohome"), dir)).toThrow(/http:\/\/ or https:\/\//);
  });
});
