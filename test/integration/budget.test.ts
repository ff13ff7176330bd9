// Budgets (issue 25 item 3): defaults settled at create, the 80 % notice,
// parking at 100 % when the session comes to rest, a tree budget over a
// parent and its children, --hard at the next tool call, and resume
// --budget-tokens raising the limit and putting a running session back at rest
// (a plain resume of a session its budget parked is refused; a stopped one
// comes back only with a raised limit).
import { afterEach, describe, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, REPO_ROOT, SPEX_BIN, okJson, sandbox, waitFor } from "../support/sandbox";
import { seedRecord, storedRecord } from "../support/records";
import { countingBin, installFakeAgents } from "../support/agents";
import { http, serve } from "./backend-support";
import { claudeProjectName } from "../../lib/attention/usage";
import { type Budget, writeBudget } from "../../lib/attention/budget";
import { projectStore, sessionPaths } from "../../lib/store";
import type { SessionRecord } from "../../lib/record";

let sb: Sandbox | undefined;
afterEach(() => {
  sb?.cleanup();
  sb = undefined;
});

let messages = 0;
/** Claude Code's transcript lines for `n` replies of 100 fresh input and 90 output tokens (190 each). */
function spend(s: Sandbox, rec: Pick<SessionRecord, "worktree_path" | "harness_session_id">, n: number, model = "claude-opus-4-8"): void {
  const file = join(s.env.HOME!, ".claude", "projects", claudeProjectName(rec.worktree_path), `${rec.harness_session_id}.jsonl`);
  mkdirSync(join(file, ".."), { recursive: true });
  for (let i = 0; i < n; i++) {
    const line = { type: "assistant", timestamp: new Date().toISOString(), message: { id: `msg_${++messages}`, model, usage: { input_tokens: 100, output_tokens: 90 } } };
    appendFileSync(file, JSON.stringify(line) + "\n");
  }
}

function claudeSession(s: Sandbox, fields: Partial<SessionRecord> = {}): SessionRecord {
  return seedRecord(s.home, s.repo, { status: "active", harness: "claude", launcher: "claude", harness_session_id: crypto.randomUUID(), ...fields });
}

function budget(s: Sandbox, id: string, b: Partial<Budget>): void {
  writeBudget(projectStore(s.repo, s.home), id, { version: 1, usd: null, tokens: null, hard: false, scope: "session", source: "flag", warned: false, exceeded: false, ...b });
}

const readBudgetFile = (s: Sandbox, id: string) => JSON.parse(readFileSync(join(sessionPaths(projectStore(s.repo, s.home), id).dir, "budget.json"), "utf8"));

function hook(s: Sandbox, id: string, action: string, event: string) {
  return s.spex(["internal", "hook", "claude", action, event], { env: { SPEX_SESSION_ID: id, SPEX_PROJECT_ROOT: s.repo }, input: "{}" });
}

/**
 * A session of the fake Claude CLI with a 100-token budget, launched over a
 * transcript already past it (one reply of 190 tokens, where Claude Code would
 * write it): parked by its budget at its first Stop.
 */
async function parkedByBudget(s: Sandbox): Promise<string> {
  installFakeAgents(s, ["claude"]);
  const id = okJson(s.spex(["session", "new", "--launcher", "claude", "--no-launch", "--budget-tokens", "100", "--json", "first task"])).session_id as string;
  spend(s, storedRecord(s.home, id) as SessionRecord, 1);
  expect(s.spex(["session", "resume", id]).code).toBe(0);
  await waitFor(() => storedRecord(s.home, id).note === "budget_exceeded", "parked at the first Stop", 30000);
  return id;
}

/** A command sink that appends each notification to a file. */
function notifySink(s: Sandbox): () => any[] {
  const log = join(s.dir, "budget-notices.log");
  const script = join(s.dir, "sink.sh");
  writeFileSync(script, `#!/bin/sh\ncat >> '${log}'\n`);
  chmodSync(script, 0o755);
  const config = existsSync(join(s.repo, "spexcode.json")) ? JSON.parse(readFileSync(join(s.repo, "spexcode.json"), "utf8")) : {};
  writeFileSync(join(s.repo, "spexcode.json"), JSON.stringify({ ...config, notify: [{ on: ["budget"], command: [script] }], notifyMinIntervalSeconds: 0 }));
  return () =>
    existsSync(log)
      ? readFileSync(log, "utf8")
          .split("\n")
          .filter(Boolean)
          .flatMap((l) => {
            try {
              return [JSON.parse(l)];
            } catch {
              return [];
            }
          })
      : [];
}

describe("budgets", () => {
  test("settled at create: the flags, else the group's default, else the project's", () => {
    sb = sandbox();
    const s = sb;
    writeFileSync(join(s.repo, "spexcode.json"), JSON.stringify({ budgets: { default: { usd: 5 }, groups: { fleet: { tokens: 1000, hard: true } } } }));
    expect(s.spex(["group", "new", "fleet"]).code).toBe(0);
    expect(s.spex(["group", "new", "fleet/api"]).code).toBe(0);
    const make = (args: string[]) => okJson(s.spex(["session", "new", "--launcher", "shell", "--no-launch", "--json", ...args, "a task"])).session_id as string;
    const plain = make([]);
    const grouped = make(["--group", "fleet/api"]);
    const flagged = make(["--group", "fleet/api", "--budget-usd", "0.5", "--budget-scope", "tree"]);
    expect(readBudgetFile(s, plain)).toMatchObject({ usd: 5, tokens: null, hard: false, scope: "session", source: "project" });
    expect(readBudgetFile(s, grouped)).toMatchObject({ usd: null, tokens: 1000, hard: true, source: "group fleet" });
    expect(existsSync(join(sessionPaths(projectStore(s.repo, s.home), grouped).dir, "budget.hard"))).toBe(true);
    expect(readBudgetFile(s, flagged)).toMatchObject({ usd: 0.5, tokens: null, hard: false, scope: "tree", source: "flag" });
    const bad = s.spex(["session", "new", "--launcher", "shell", "--no-launch", "--budget-tokens", "0", "x"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("not a positive whole number");
  });

  test("at 80 % one budget notice; at 100 % parked with budget_exceeded as it comes to rest, notified once", async () => {
    sb = sandbox();
    const s = sb;
    const notices = notifySink(s);
    const rec = claudeSession(s);
    budget(s, rec.session_id, { tokens: 450 });
    spend(s, rec, 2); // 380 of 450: 84 %
    expect(hook(s, rec.session_id, "stop", "Stop").code).toBe(0);
    expect(storedRecord(s.home, rec.session_id).status).toBe("idle");
    await waitFor(() => notices().length === 1, "the 80 % notice");
    expect(notices()[0]).toMatchObject({ event: "budget", session_id: rec.session_id, budget: { percent: 84, limitTokens: 450, spentTokens: 380, owner: rec.session_id } });
    // Another turn: 570 of 450.
    expect(hook(s, rec.session_id, "turn", "UserPromptSubmit").code).toBe(0);
    spend(s, rec, 1);
    expect(hook(s, rec.session_id, "stop", "Stop").code).toBe(0);
    expect(storedRecord(s.home, rec.session_id)).toMatchObject({ status: "parked", note: "budget_exceeded", declared: "park" });
    expect(readBudgetFile(s, rec.session_id)).toMatchObject({ warned: true, exceeded: true });
    expect(okJson(s.spex(["session", "show", rec.session_id, "--json"])).budget).toMatchObject({ tokens: 450, usd: null, spentTokens: 570, percent: 126, exceeded: true, source: "flag" });
    expect(s.spex(["session", "show", rec.session_id]).stdout).toContain("budget   450 tokens, 126 % spent (from flag)");
    await waitFor(() => notices().length === 2, "the 100 % notice");
    expect(notices()[1]).toMatchObject({ event: "budget", status: "parked", note: "budget_exceeded", budget: { percent: 126, spentTokens: 570 } });
    // The Stop of a later turn (still over, already parked) notifies nothing more; nor does a tool call.
    expect(hook(s, rec.session_id, "stop", "Stop").code).toBe(0);
    expect(hook(s, rec.session_id, "tool", "PreToolUse").code).toBe(0);
    // A later, unrelated notice proves the queue is drained: exactly the two budget notices went out.
    expect(s.spex(["session", "ls", "--json"]).code).toBe(0);
    expect(notices().length).toBe(2);
    expect(existsSync(join(s.home, "notify.log"))).toBe(false);
  }, 60000);

  test("a reply Claude Code writes after its Stop hook began (its transcript is written on a timer) still counts at that Stop", async () => {
    sb = sandbox();
    const s = sb;
    const rec = claudeSession(s);
    budget(s, rec.session_id, { tokens: 100 });
    // The turn's prompt is on disk; its reply is still in the CLI's write queue when the hook starts.
    const file = join(s.env.HOME!, ".claude", "projects", claudeProjectName(rec.worktree_path), `${rec.harness_session_id}.jsonl`);
    mkdirSync(join(file, ".."), { recursive: true });
    appendFileSync(file, JSON.stringify({ type: "user", message: { role: "user", content: "say hi" } }) + "\n");
    const child = spawn(SPEX_BIN, ["internal", "hook", "claude", "stop", "Stop"], { cwd: s.repo, env: { ...s.env, SPEX_SESSION_ID: rec.session_id, SPEX_PROJECT_ROOT: s.repo } });
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    child.stdin.end("{}");
    await waitFor(() => storedRecord(s.home, rec.session_id).status === "idle", "the Stop hook at rest");
    spend(s, rec, 1); // 190 of 100
    expect(await exited).toBe(0);
    expect(storedRecord(s.home, rec.session_id)).toMatchObject({ status: "parked", note: "budget_exceeded" });
    expect(okJson(s.spex(["session", "show", rec.session_id, "--json"])).budget).toMatchObject({ spentTokens: 190, exceeded: true });
  }, 60000);

  test("a tree budget counts the children: crossing it parks every member at rest and notifies its owner once", async () => {
    sb = sandbox();
    const s = sb;
    const notices = notifySink(s);
    const parent = claudeSession(s, { status: "idle" });
    const a = claudeSession(s, { parent: parent.session_id, status: "idle" });
    const b = claudeSession(s, { parent: parent.session_id });
    const grandchild = claudeSession(s, { parent: a.session_id, status: "idle" });
    budget(s, parent.session_id, { tokens: 700, scope: "tree" });
    spend(s, parent, 1);
    spend(s, a, 1);
    spend(s, grandchild, 1);
    // Only a's own usage has been read so far: 190 of 700.
    expect(hook(s, a.session_id, "turn", "UserPromptSubmit").code).toBe(0);
    expect(hook(s, a.session_id, "stop", "Stop").code).toBe(0);
    expect(storedRecord(s.home, a.session_id).status).toBe("idle");
    // The others' usage is counted when each reads it: show brings each up to date.
    for (const r of [parent, grandchild]) s.spex(["session", "show", r.session_id, "--json"]);
    spend(s, b, 1);
    expect(hook(s, b.session_id, "stop", "Stop").code).toBe(0);
    // 760 of 700, past 80 % and 100 % in one step: b (at rest now) and every member already at rest are parked.
    for (const r of [parent, a, b, grandchild]) expect(storedRecord(s.home, r.session_id)).toMatchObject({ status: "parked", note: "budget_exceeded" });
    await waitFor(() => notices().filter((n) => n.budget.percent >= 100).length === 1, "the tree's 100 % notice");
    const over = notices().find((n) => n.budget.percent >= 100);
    expect(over).toMatchObject({ session_id: parent.session_id, budget: { owner: parent.session_id, limitTokens: 700, spentTokens: 760 } });
    // One notice: the 100 % one says all there is to say.
    expect(notices().length).toBe(1);
  }, 60000);

  test("a tree budget in dollars still counts what the priced members spent when one child runs a model with no price", async () => {
    sb = sandbox();
    const s = sb;
    const parent = claudeSession(s, { status: "active" });
    const child = claudeSession(s, { parent: parent.session_id, status: "idle" });
    budget(s, parent.session_id, { usd: 0.001, scope: "tree" });
    // The child's reply is on a model no price is known for: tokens, no dollars.
    spend(s, child, 1, "my-local-model");
    expect(okJson(s.spex(["session", "show", child.session_id, "--json"])).usage).toMatchObject({ costUsd: null, total: 190 });
    // The parent's reply alone costs more than the whole limit.
    spend(s, parent, 1);
    expect(hook(s, parent.session_id, "stop", "Stop").code).toBe(0);
    expect(storedRecord(s.home, parent.session_id)).toMatchObject({ status: "parked", note: "budget_exceeded" });
    expect(okJson(s.spex(["session", "show", parent.session_id, "--json"])).budget).toMatchObject({ spentTokens: 380, exceeded: true });
  }, 60000);

  test("--hard: the hook sends tool calls to the binary, and a spent budget parks and interrupts at the next one", async () => {
    sb = sandbox();
    const s = sb;
    const counter = countingBin(s, SPEX_BIN);
    const rec = claudeSession(s);
    budget(s, rec.session_id, { tokens: 300, hard: true });
    // The fast path of a session with a hard budget calls the binary on a tool call; one without does not.
    const plain = claudeSession(s);
    const runHook = (r: SessionRecord) => {
      const marker = join(s.dir, `called-${r.session_id}`);
      const fakeBin = join(s.dir, "record-call");
      writeFileSync(fakeBin, `#!/bin/sh\necho "$@" >> "$MARKER"\n`);
      chmodSync(fakeBin, 0o755);
      spawnSync("/bin/sh", [join(REPO_ROOT, "hooks", "agent-hook.sh"), "claude", "tool", "PreToolUse"], {
        env: { PATH: "/nonexistent", MARKER: marker, SPEX_RECORD: sessionPaths(projectStore(s.repo, s.home), r.session_id).record, SPEX_BIN: fakeBin, SPEX_SESSION_ID: r.session_id },
        input: "{}",
      });
      return existsSync(marker) ? readFileSync(marker, "utf8").trim() : "";
    };
    expect(runHook(plain)).toBe("");
    expect(runHook(rec)).toBe("internal hook claude tool PreToolUse");

    spend(s, rec, 1); // 190 of 300: nothing yet
    expect(hook(s, rec.session_id, "tool", "PreToolUse").code).toBe(0);
    expect(storedRecord(s.home, rec.session_id).status).toBe("active");
    spend(s, rec, 1); // 380 of 300, mid-turn
    expect(hook(s, rec.session_id, "tool", "PostToolUse").code).toBe(0);
    expect(storedRecord(s.home, rec.session_id)).toMatchObject({ status: "parked", note: "budget_exceeded" });
    await waitFor(() => counter.calls().some((c) => c === `session interrupt ${rec.session_id} --json`), "the interrupt, from a detached process");
  }, 60000);

  test("resume --budget-tokens raises the limit and puts a running session parked by its budget back at rest", async () => {
    sb = sandbox();
    const s = sb;
    const id = await parkedByBudget(s);
    expect(storedRecord(s.home, id).status).toBe("parked");
    // A plain resume (even --force) is refused: it would spend more of a budget already reached.
    for (const args of [[], ["--force"]]) {
      const refused = s.spex(["session", "resume", id, ...args, "--json"]);
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stdout).error).toMatchObject({ code: "budget_exceeded", owner: id, tokens: 100 });
    }
    expect(s.spex(["session", "resume", id]).stderr).toContain(`spex session resume ${id.slice(0, 8)} --budget-usd N`);
    expect(storedRecord(s.home, id)).toMatchObject({ status: "parked", note: "budget_exceeded" });
    // A message waits: a session over its budget is not at rest.
    expect(s.spex(["session", "send", id, "one more thing"]).code).toBe(0);
    const raised = okJson(s.spex(["session", "resume", id, "--budget-tokens", "10000", "--json"]));
    expect(raised).toMatchObject({ id, unparked: true, resumed: false, budget: { tokens: 10000, warned: false, exceeded: false } });
    // At rest again: the waiting message is handed over, its turn runs.
    await waitFor(() => readFileSync(join(s.dir, "fake-agent.log"), "utf8").includes("one more thing"), "the waiting message delivered", 30000);
  }, 90000);

  test("a stopped session its budget parked comes back only with a raised limit", async () => {
    sb = sandbox();
    const s = sb;
    const id = await parkedByBudget(s);
    expect(s.spex(["session", "stop", id]).code).toBe(0);
    const refused = s.spex(["session", "resume", id, "--json"]);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error).toMatchObject({ code: "budget_exceeded" });
    expect(okJson(s.spex(["session", "ls", id, "--json"]))[0]).toMatchObject({ liveness: "offline" });
    // Still under the new limit's spend: refused as well, the limit is written all the same.
    expect(JSON.parse(s.spex(["session", "resume", id, "--budget-tokens", "150", "--json"]).stdout).error).toMatchObject({ code: "budget_exceeded", tokens: 150 });
    // The backend (the dashboard's resume) answers the same, and takes a new limit in its body.
    const be = await serve(s);
    try {
      const post = (body: unknown) => http(be.url, `/api/sessions/${id}/resume`, { token: be.token, body });
      const refusedHttp = await post({});
      expect(refusedHttp.status).toBe(409);
      expect(refusedHttp.json.error).toMatchObject({ code: "budget_exceeded" });
      expect((await post({ budget: { tokens: -5 } })).status).toBe(400);
      const resumed = await post({ budget: { tokens: 10000 } });
      expect(resumed.status).toBe(200);
      expect(resumed.json).toMatchObject({ id });
      expect(resumed.json.resumeArgs.length).toBeGreaterThan(0);
    } finally {
      await be.stop();
    }
    expect(readBudgetFile(s, id)).toMatchObject({ tokens: 10000, exceeded: false });
    await waitFor(() => okJson(s.spex(["session", "ls", id, "--json"]))[0].liveness === "online", "relaunched", 30000);
  }, 90000);

  test("resume --all after its tmux server went leaves a session its budget parked as it is, and says why", async () => {
    sb = sandbox();
    const s = sb;
    const id = await parkedByBudget(s);
    s.tmux(["kill-server"]);
    await waitFor(() => okJson(s.spex(["session", "ls", id, "--json"]))[0].offlineReason === "tmux_server_gone", "its agent gone with the server", 30000);
    const all = okJson(s.spex(["session", "resume", "--all", "--json"]));
    expect(all.entries).toHaveLength(1);
    expect(all.entries[0]).toMatchObject({ id, outcome: "skipped", error: { code: "budget_exceeded" } });
    expect(okJson(s.spex(["session", "ls", id, "--json"]))[0]).toMatchObject({ liveness: "offline", offlineReason: "tmux_server_gone" });
  }, 90000);
});
