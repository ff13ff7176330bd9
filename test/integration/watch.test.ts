// watch / watch list / watch cancel / reparent / watch stream, with a fake
// agent as the watcher so notices are really typed into its pane.
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, SPEX_BIN, sandbox, waitFor } from "../support/sandbox";
import { type FakeAgent, json, startFakeAgent } from "../support/comms";
import { seedRecord } from "../support/records";
import { listPending, listSettled } from "../../lib/comms";
import { type ProjectStore, projectStore } from "../../lib/store";

let sb: Sandbox;
let store: ProjectStore;
setDefaultTimeout(30000);
beforeEach(() => {
  sb = sandbox();
  store = projectStore(sb.repo, sb.home);
});
afterEach(() => sb.cleanup());

const setState = (id: string, state: string, ...extra: string[]) => {
  const r = sb.spex(["internal", "session-state", state, "--session", id, ...extra]);
  if (r.code !== 0) throw new Error(r.stderr);
};

/** Every notice ever queued for a watcher (settled or not): the observer queues before the writer exits. */
const notices = (watcher: string) => [...listSettled(store, watcher), ...listPending(store, watcher)].filter((m) => m.from.kind === "watch");

async function family(): Promise<{ parent: FakeAgent; child: string }> {
  const parent = await startFakeAgent(sb, { prompt: "orchestrate" });
  const made = sb.spex(["session", "new", "child task", "--parent", parent.id, "--launcher", "shell", "--no-launch", "--json"]);
  if (made.code !== 0) throw new Error(made.stderr);
  const child = json(made.stdout).session_id as string;
  // Its first turn starts (as UserPromptSubmit would report it).
  setState(child, "active", "--new-turn");
  return { parent, child };
}

describe("watch", () => {
  test("a parent that also watches its child manually gets exactly one message when the child goes idle", async () => {
    const { parent, child } = await family();
    const r = sb.spex(["session", "watch", child.slice(0, 8), "--json"], { env: { SPEX_SESSION_ID: parent.id } });
    expect(json(r.stdout)).toEqual([{ watched: child, watcher: parent.id, sources: ["manual", "parent"] }]);
    setState(child, "idle", "--note", "finished the parser");
    await waitFor(() => parent.received().length === 1, "the notice");
    expect(notices(parent.id)).toHaveLength(1);
    expect(parent.received()[0]).toBe(`[spex watch] session child task (${child.slice(0, 8)}) is now idle: finished the parser (details: spex session show ${child.slice(0, 8)})`);
    // A turn starting is not news.
    setState(child, "active");
    expect(notices(parent.id)).toHaveLength(1);
  });

  test("a state write killed before its notice: the child's next change sends the notice the killed writer never did", async () => {
    const { parent, child } = await family();
    const killed = sb.spex(["internal", "session-state", "idle", "--session", child, "--note", "finished the parser"], { env: { SPEX_TEST_CRASH_AT: "record-written" } });
    expect(killed.code).not.toBe(0);
    expect(notices(parent.id)).toHaveLength(0);
    // The next turn starting is no news of its own; the idle it follows was.
    setState(child, "active", "--new-turn");
    await waitFor(() => parent.received().length === 1, "the recovered notice");
    expect(parent.received()[0]).toBe(`[spex watch] session child task (${child.slice(0, 8)}) is now idle: finished the parser (details: spex session show ${child.slice(0, 8)})`);
    expect(notices(parent.id)).toHaveLength(1);
  });

  test("watch cancel keeps the parent source, and the parent still hears about its child", async () => {
    const { parent, child } = await family();
    sb.spex(["session", "watch", child.slice(0, 8)], { env: { SPEX_SESSION_ID: parent.id } });
    const cancel = json(sb.spex(["session", "watch", "cancel", child.slice(0, 8), "--json"], { env: { SPEX_SESSION_ID: parent.id } }).stdout);
    expect(cancel[0]).toMatchObject({ before: ["manual", "parent"], sources: ["parent"] });
    const list = json(sb.spex(["session", "watch", "list", "--json"]).stdout);
    expect(list).toEqual([expect.objectContaining({ watched: child, watcher: parent.id, sources: ["parent"] })]);
    setState(child, "idle");
    await waitFor(() => parent.received().length === 1, "the notice");
    expect(notices(parent.id)).toHaveLength(1);
  });

  test("reparent --detach stops the notices and creates no watcher and no message", async () => {
    const { parent, child } = await family();
    const out = json(sb.spex(["session", "reparent", child.slice(0, 8), "--detach", "--json"]).stdout);
    expect(out).toEqual([{ id: child, from: parent.id, to: "", changed: true, notified: false }]);
    expect(json(sb.spex(["session", "show", child.slice(0, 8), "--json"]).stdout).record.parent).toBe("");
    expect(json(sb.spex(["session", "watch", "list", "--json"]).stdout)).toEqual([]);
    setState(child, "idle");
    expect(notices(parent.id)).toHaveLength(0);
    expect(parent.received()).toEqual([]);
  });

  test("reparent --detach drops the notice still waiting for the old parent", async () => {
    const { parent, child } = await family();
    setState(parent.id, "active"); // busy: the notice waits in line
    setState(child, "idle");
    expect(notices(parent.id).map((m) => m.state)).toEqual(["queued"]);
    sb.spex(["session", "reparent", child.slice(0, 8), "--detach"]);
    expect(notices(parent.id).map((m) => [m.state, m.reason])).toEqual([["dropped", "the watch relation was removed (reparent)"]]);
    setState(parent.id, "idle");
    expect(existsSync(join(store.sessionsDir, parent.id, "inbox.pending"))).toBe(false);
    expect(parent.received()).toEqual([]);
  });

  test("reparent --to hands the new parent the child's current state, and a cycle is refused", async () => {
    const { parent, child } = await family();
    const other = await startFakeAgent(sb, { prompt: "second orchestrator" });
    setState(child, "parked", "--note", "needs a decision");
    await waitFor(() => parent.received().length === 1, "the old parent's notice");
    const out = json(sb.spex(["session", "reparent", child.slice(0, 8), "--to", other.id.slice(0, 8), "--json"]).stdout);
    expect(out[0]).toMatchObject({ from: parent.id, to: other.id, notified: true });
    await waitFor(() => other.received().length === 1, "the new parent's notice");
    expect(other.received()[0]).toContain("is now parked: needs a decision");
    expect(json(sb.spex(["session", "watch", "list", child.slice(0, 8), "--json"]).stdout)).toEqual([expect.objectContaining({ watcher: other.id, sources: ["parent"] })]);
    const cycle = sb.spex(["session", "reparent", other.id.slice(0, 8), "--to", child.slice(0, 8), "--json"]);
    expect(json(cycle.stdout).error.code).toBe("reparent_cycle");
  });

  test("watch without a session of one's own is refused with a hint", () => {
    const s = seedRecord(sb.home, sb.repo, {});
    const r = sb.spex(["session", "watch", s.session_id.slice(0, 8), "--json"]);
    expect(r.code).toBe(2);
    expect(json(r.stdout).error.code).toBe("watcher_unknown");
  });
});

describe("watch stream", () => {
  test("prints each new event as one JSON line, including sessions created after it started", async () => {
    const a = seedRecord(sb.home, sb.repo, { status: "active", prompt: "a" });
    const armed = join(sb.dir, "stream-armed");
    const child = spawn(SPEX_BIN, ["session", "watch", "stream", "--json", "--limit", "3"], { cwd: sb.repo, env: { ...sb.env, SPEX_TEST_WAIT_ARMED: armed, SPEX_WAIT_POLL_MS: "600000" } });
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    const done = new Promise<number | null>((resolve) => child.on("close", resolve));
    await waitFor(() => existsSync(armed), "the stream to arm");
    setState(a.session_id, "idle");
    const b = seedRecord(sb.home, sb.repo, { status: "idle", prompt: "b" });
    setState(b.session_id, "active");
    sb.spex(["session", "send", a.session_id.slice(0, 8), "hello"]);
    expect(await done).toBe(0);
    const lines = stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((e) => [e.session, e.kind])).toEqual([
      [a.session_id, "state"],
      [b.session_id, "state"],
      [a.session_id, "message_in"],
    ]);
  });

  test("--replay starts each timeline from its first event", () => {
    const a = seedRecord(sb.home, sb.repo, { status: "active" });
    setState(a.session_id, "idle");
    setState(a.session_id, "active");
    const r = sb.spex(["session", "watch", "stream", a.session_id.slice(0, 8), "--replay", "--limit", "2", "--json"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split("\n").map((l) => JSON.parse(l).seq)).toEqual([1, 2]);
  });

  test("names each session by its label and short id, and a message by its sender (issue 28 item 9)", () => {
    const a = seedRecord(sb.home, sb.repo, { status: "active", prompt: "tidy the billing exports" });
    const boss = seedRecord(sb.home, sb.repo, { status: "idle", prompt: "run the fleet", name: "boss" });
    setState(a.session_id, "idle");
    sb.spex(["session", "send", a.session_id.slice(0, 8), "hello", "--from", "boss", "--queue-only"]);
    const human = sb.spex(["session", "watch", "stream", a.session_id.slice(0, 8), "--replay", "--limit", "2"]);
    expect(human.code).toBe(0);
    const [state, message] = human.stdout.trim().split("\n");
    expect(state).toContain(`tidy the billing exports (${a.session_id.slice(0, 8)}) active -> idle`);
    expect(message).toContain(`tidy the billing exports (${a.session_id.slice(0, 8)}) <- `);
    expect(message).toContain(`from boss (${boss.session_id.slice(0, 8)})`);
    const lines = sb.spex(["session", "watch", "stream", a.session_id.slice(0, 8), "--replay", "--limit", "2", "--json"]).stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((e) => e.label)).toEqual(["tidy the billing exports", "tidy the billing exports"]);
  });
});
