// `spex mcp` through the MCP SDK's own client over stdio, against the built
// binary: initialize, tools/list, a tools/call of every tool answering what
// the CLI's --json answers, and refusals as tool errors carrying the spex code.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { type McpSession, connectMcp, errorCodeOf, jsonOf } from "../support/mcp";
import { join } from "node:path";
import { type Sandbox, REPO_ROOT, sandbox, waitFor } from "../support/sandbox";
import { seedRecord } from "../support/records";

let sb: Sandbox;
let alpha: string;
let beta: string;
let mcp: McpSession;
/** Every tool a test below called: the last test checks none was left out. */
const called = new Set<string>();

function cli(args: string[]): any {
  const r = sb.spex([...args, "--json"]);
  if (r.code !== 0) throw new Error(`spex ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

async function call(name: string, args: Record<string, unknown> = {}) {
  called.add(name);
  return mcp.call(name, args);
}

async function ok(name: string, args: Record<string, unknown> = {}): Promise<any> {
  const r = await call(name, args);
  if (r.isError) throw new Error(`${name} failed: ${r.content[0]?.text}`);
  return jsonOf(r);
}

beforeAll(async () => {
  sb = sandbox();
  alpha = cli(["session", "new", "--launcher", "shell", "--no-launch", "--name", "alpha", "the caller's own work"]).session_id;
  beta = cli(["session", "new", "--launcher", "shell", "--no-launch", "--name", "beta", "another session"]).session_id;
  cli(["group", "new", "fleet"]);
  cli(["group", "file", "fleet", alpha]);
  mcp = await connectMcp(sb, { env: { SPEX_SESSION_ID: alpha } });
});
afterAll(async () => {
  await mcp?.close();
  sb.cleanup();
});

describe("spex mcp over stdio (SDK client)", () => {
  test("initialize: the server names itself spex, serves tools and resources, and tells the agent who it is", () => {
    const info = mcp.client.getServerVersion();
    expect(info?.name).toBe("spex");
    expect(info?.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(mcp.client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
    expect(mcp.client.getInstructions()).toContain(`You are spex session alpha (${alpha.slice(0, 8)})`);
  });

  test("tools/list: every tool, each with a description and an object schema whose every field is described", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ["session_list", "session_show", "session_new", "session_send", "session_wait", "session_read", "session_done", "session_park", "session_ask", "task_new", "task_list", "task_claim", "task_finish", "task_release", "reserve", "reservations", "release", "group_list", "snapshot"].sort(),
    );
    for (const t of tools) {
      expect(t.description!.length).toBeGreaterThan(60);
      expect(t.inputSchema.type).toBe("object");
      expect((t.inputSchema as { additionalProperties?: unknown }).additionalProperties).toBe(false);
      for (const [field, schema] of Object.entries(t.inputSchema.properties ?? {})) {
        expect({ tool: t.name, field, described: ((schema as { description?: string }).description ?? "").length > 10 }).toEqual({ tool: t.name, field, described: true });
      }
    }
    const claim = tools.find((t) => t.name === "task_claim")!;
    expect(claim.inputSchema.required ?? []).toEqual([]);
    expect(tools.find((t) => t.name === "session_send")!.inputSchema.required).toEqual(["session", "text"]);
    expect(tools.find((t) => t.name === "session_list")!.annotations?.readOnlyHint).toBe(true);
  });

  test("session_list and group_list answer exactly what ls --json and group ls --json print", async () => {
    expect(await ok("session_list")).toEqual(cli(["session", "ls"]));
    expect(await ok("session_list", { sessions: ["beta"] })).toEqual(cli(["session", "ls", "beta"]));
    const structured = (await call("session_list", { status: ["idle", "offline"] })).structuredContent!;
    expect(structured.sessions).toEqual(cli(["session", "ls", "--status", "idle,offline"]));
    expect(await ok("group_list")).toEqual(cli(["group", "ls"]));
  });

  test("session_show: without a session it shows the caller, with one it shows that one, as show --json does", async () => {
    expect(await ok("session_show")).toEqual(cli(["session", "show", alpha]));
    expect(await ok("session_show", { session: "beta" })).toEqual(cli(["session", "show", beta]));
  });

  test("session_new: a child of the caller, filed in the caller's group; the create JSON of new --json", async () => {
    const made = await ok("session_new", { prompt: "a child made over MCP", launcher: "shell", no_launch: true, name: "kid" });
    expect(made).toMatchObject({ parent: alpha, group: "fleet", name: "kid", prompt: "a child made over MCP", ready: false });
    const row = cli(["session", "ls", "kid"])[0];
    expect(row).toMatchObject({ parent: alpha, group: "fleet" });
    // The parent watches its child, as after `new --parent`.
    expect(cli(["session", "watch", "list", "kid"])).toEqual([expect.objectContaining({ watched: made.session_id, watcher: alpha, sources: ["parent"] })]);
    // parent "" makes it top-level; group "" files it in the root.
    const top = await ok("session_new", { prompt: "a top-level one", launcher: "shell", no_launch: true, parent: "", group: "" });
    expect(top).toMatchObject({ parent: "", group: "" });
  });

  test("session_new takes new's placement and spawn options: directory on the record, a link or .. out of the worktree unsafe_path, model checked per harness", async () => {
    const placed = await ok("session_new", { prompt: "work in the api folder", launcher: "shell", no_launch: true, directory: "services/api", no_queue: true });
    expect(placed).toMatchObject({ directory: "services/api", parent: alpha });
    expect(cli(["session", "show", placed.session_id]).record.directory).toBe("services/api");
    expect(errorCodeOf(await call("session_new", { prompt: "escape", launcher: "shell", no_launch: true, directory: "../elsewhere" }))).toBe("unsafe_path");
    const shellModel = await call("session_new", { prompt: "a model for a shell", launcher: "shell", no_launch: true, model: "opus" });
    expect(errorCodeOf(shellModel)).toBe("usage");
    expect(shellModel.content[0]?.text).toContain("claude, codex, gemini");
  });

  test("session_new takes a budget as new's flags do: the child's budget is shown, a bad one refused", async () => {
    const made = await ok("session_new", { prompt: "a budgeted child", launcher: "shell", no_launch: true, budget_tokens: 5000, budget_usd: 2, budget_hard: true, budget_scope: "tree" });
    expect(cli(["session", "show", made.session_id]).budget).toMatchObject({ tokens: 5000, usd: 2, hard: true, scope: "tree", source: "flag", percent: 0 });
    expect(errorCodeOf(await call("session_new", { prompt: "no budget", launcher: "shell", no_launch: true, budget_usd: -1 }))).toBe("usage");
  });

  test("session_send: queued from the caller, with the caller as the sender on the target's timeline", async () => {
    const sent = await ok("session_send", { session: "beta", text: "please look at the parser\nsecond line" });
    expect(sent.messageId).toMatch(new RegExp(`^${beta.slice(0, 8)}-\\d+$`));
    expect(["queued", "held"]).toContain(sent.state);
    const status = cli(["session", "message-status", sent.messageId]);
    expect(status.from).toMatchObject({ kind: "session", id: alpha, label: "alpha" });
    expect(status.text).toBe("please look at the parser\nsecond line");
    // reply_to reaches the send: the caller cannot answer a message it sent itself.
    const reply = await call("session_send", { session: "beta", text: "answering myself", reply_to: sent.messageId });
    expect(errorCodeOf(reply)).toBe("reply_invalid");
  });

  test("session_wait looks at the panes: a Codex screen after a 429 (no hook fires) ends it with stalled and the session's stall", async () => {
    const fixture = join(REPO_ROOT, "test", "fixtures", "screens", "codex-0.171.0-rate-limited.txt");
    sb.tmux(["new-session", "-d", "-s", "stalled-codex", "-x", "200", "-y", "50", `cat '${fixture}'; exec sleep 600`]);
    const rec = seedRecord(sb.home, sb.repo, { harness: "codex", launcher: "codex", status: "active", tmux_socket: sb.tmuxSocket, tmux_session: "stalled-codex" });
    const waited = await ok("session_wait", { sessions: [rec.session_id], idle: true, timeout_seconds: 30 });
    expect(waited.outcome).toBe("stalled");
    expect(waited.sessions[0]).toMatchObject({ id: rec.session_id, stall: "rate_limited" });
    expect(cli(["session", "ls", rec.session_id])[0]).toMatchObject({ stall: "rate_limited", lifecycle: "error" });
    sb.tmux(["kill-session", "-t", "stalled-codex"]);
    cli(["session", "archive", rec.session_id]);
  });

  test("session_wait: parks and times out as asked; its own message does not wake the caller; a wait over 5 min is refused", async () => {
    const waited = await ok("session_wait", { sessions: ["beta"], timeout_seconds: 1 });
    expect(waited.outcome).toBe("timed_out");
    expect(waited.waitedMs).toBeGreaterThanOrEqual(900);
    expect(waited.sessions[0].id).toBe(beta);
    const until = await ok("session_wait", { sessions: ["beta"], until: ["offline"], timeout_seconds: 5 });
    expect(until.outcome).toBe("reached");
    expect(errorCodeOf(await call("session_wait", { timeout_seconds: 301 }))).toBe("usage");
    expect(errorCodeOf(await call("session_wait", { sessions: [alpha] }))).toBe("wait_self");
  });

  test("session_read: the pane of a running session as read --json prints it; snapshot: the document of snapshot --json", async () => {
    // The shell harness runs the prompt as its first command.
    const gamma = cli(["session", "new", "--launcher", "shell", "--name", "gamma", "echo pane-marker-$((4700+11))"]).session_id as string;
    // Its output, then the shell's next prompt: a screen that stays as it is.
    await waitFor(() => /^pane-marker-4711\n.*[#$%>] ?$/m.test(sb.spex(["session", "read", gamma]).stdout.trimEnd()), "the shell session's output and its next prompt");
    const read = await ok("session_read", { session: "gamma" });
    expect(read).toMatchObject({ id: gamma, source: "pane", live: true, styled: false, history: 0 });
    expect(read.screen).toMatch(/^pane-marker-4711$/m);
    expect(read).toEqual(cli(["session", "read", gamma]));
    expect(errorCodeOf(await call("session_read", { session: "gamma", history: -1 }))).toBe("usage");

    const snap = await ok("snapshot");
    const viaCli = cli(["snapshot"]);
    expect(snap.schemaVersion).toBe("spex.snapshot.v1");
    for (const part of ["project", "sessions", "groups", "tasks", "reservations", "terminals", "messages"]) expect({ part, value: snap[part] }).toEqual({ part, value: viaCli[part] });
    expect(snap.sessions.map((r: any) => r.id)).toContain(gamma);
    cli(["session", "stop", gamma]);
  });

  test("task tools: new, list, claim without an id takes the oldest unblocked, finish, release; the holder is the caller", async () => {
    const t1 = await ok("task_new", { title: "first", body: "do the first thing" });
    const t2 = await ok("task_new", { title: "second", depends_on: [t1.id] });
    expect(t2.blocked_by).toEqual([t1.id]);
    expect(t1.created_by).toBe(alpha);
    const claimed = await ok("task_claim");
    expect(claimed).toMatchObject({ id: t1.id, state: "in_progress", owner: alpha, owner_label: "alpha", mine: true, changed: true });
    expect(cli(["task", "ls"]).find((t: any) => t.id === t1.id).owner).toBe(alpha);
    expect(await ok("task_list")).toEqual(cli(["task", "ls", "--session", alpha]));
    expect(await ok("task_release", { id: t1.id })).toMatchObject({ id: t1.id, state: "pending", owner: "" });
    await ok("task_claim", { id: t1.id });
    expect(await ok("task_finish", { id: t1.id })).toMatchObject({ state: "done", changed: true });
    expect(await ok("task_claim")).toMatchObject({ id: t2.id, owner: alpha });
  });

  test("reserve, reservations, release: leases of the caller; another session's overlap comes back as a conflict", async () => {
    cli(["reserve", "src/auth", "--session", beta, "--note", "token refresh"]);
    const r = await ok("reserve", { patterns: ["src/auth/token.ts"], ttl: "45m", note: "mine" });
    expect(r.reserved).toEqual([expect.objectContaining({ pattern: "src/auth/token.ts", mode: "exclusive", session_id: alpha, mine: true, expires_in: "45m" })]);
    expect(r.conflicts).toEqual([expect.objectContaining({ pattern: "src/auth", session_id: beta, holder: "beta", mine: false })]);
    expect(await ok("reservations")).toEqual(cli(["reserve", "ls", "--session", alpha]));
    expect((await ok("release")).released.map((l: any) => l.pattern)).toEqual(["src/auth/token.ts"]);
    expect(cli(["reserve", "ls"]).map((l: any) => l.session_id)).toEqual([beta]);
  });

  test("session_done, session_park, session_ask declare the caller's own state", async () => {
    expect(await ok("session_ask", { note: "per user or global cache?" })).toEqual({ id: alpha, status: "asking", proposal: "", changed: true });
    expect(cli(["session", "ls", alpha])[0]).toMatchObject({ lifecycle: "asking", note: "per user or global cache?" });
    expect(await ok("session_park", { note: "waiting for the API key" })).toMatchObject({ status: "parked", changed: true });
    expect(await ok("session_done", { propose: "merge", note: "tests pass" })).toEqual({ id: alpha, status: "awaiting", proposal: "merge", changed: true });
    expect(cli(["session", "show", alpha])).toMatchObject({ lifecycle: "awaiting", proposal: "merge", display: "review", note: "tests pass" });
  });

  test("refusals are tool errors carrying the CLI's code, message and hint; a bad argument is usage; an unknown tool is a protocol error", async () => {
    const none = await call("task_claim");
    expect(errorCodeOf(none)).toBe("no_claimable_task");
    expect(none.structuredContent!.error).toMatchObject({ code: "no_claimable_task", message: expect.any(String), hint: expect.any(String) });
    const held = (await ok("task_new", { title: "beta's" })).id;
    cli(["task", "claim", held, "--session", beta]);
    const refused = await call("task_claim", { id: held });
    expect(errorCodeOf(refused)).toBe("task_held");
    expect(refused.structuredContent!.error).toMatchObject({ holder: beta, holder_label: "beta" });
    // The CLI refuses the same call with the same code.
    const viaCli = sb.spex(["task", "claim", held, "--session", alpha, "--json"]);
    expect(JSON.parse(viaCli.stdout).error.code).toBe("task_held");
    expect(errorCodeOf(await call("session_show", { session: "nobody-here" }))).toBe("session_not_found");
    expect(errorCodeOf(await call("session_send", { session: "beta" }))).toBe("usage");
    expect(errorCodeOf(await call("task_finish", { id: "t1", extra: 1 }))).toBe("usage");
    expect(errorCodeOf(await call("session_list", { status: ["sleeping"] }))).toBe("usage");
    expect(errorCodeOf(await call("session_new", { prompt: "   " }))).toBe("usage");
    expect(errorCodeOf(await call("reserve", { patterns: ["/etc/passwd"] }))).toBe("pattern_invalid");
    const unknown = await mcp.client.callTool({ name: "session_explode", arguments: {} }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(McpError);
    expect((unknown as McpError).code).toBe(-32602);
  });

  test("outside a session: read tools answer, the tools that act as the caller refuse with caller_required", async () => {
    const outside = await connectMcp(sb, { env: { SPEX_SESSION_ID: "" } });
    try {
      expect(outside.client.getInstructions()).toContain("outside any spex session");
      expect(jsonOf(await outside.call("session_list")).length).toBeGreaterThan(1);
      for (const [tool, args] of [["task_claim", {}], ["session_done", { propose: "merge" }], ["reserve", { patterns: ["x"] }], ["release", {}], ["task_finish", { id: "t1" }], ["session_park", { note: "n" }], ["session_ask", { note: "n" }], ["task_release", { id: "t1" }], ["session_show", {}]] as const) {
        const r = await outside.call(tool, args);
        expect({ tool, code: errorCodeOf(r) }).toEqual({ tool, code: "caller_required" });
        expect(r.content[0]!.text).toContain("SPEX_SESSION_ID is not set");
      }
      // A message from outside is named for the client, which cannot be replied to.
      const sent = jsonOf(await outside.call("session_send", { session: "beta", text: "from a client with no session" }));
      expect(cli(["session", "message-status", sent.messageId]).from).toEqual({ kind: "name", name: "spex-test (MCP, no spex session)" });
    } finally {
      await outside.close();
    }
  });

  test("resources: the session list and the caller's own record", async () => {
    const { resources } = await mcp.client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(["spex://session/self", "spex://sessions"]);
    const self = await mcp.client.readResource({ uri: "spex://session/self" });
    expect(JSON.parse((self.contents[0] as { text: string }).text).id).toBe(alpha);
    const list = await mcp.client.readResource({ uri: "spex://sessions" });
    expect(JSON.parse((list.contents[0] as { text: string }).text)).toEqual(cli(["session", "ls"]));
  });

  test("bounds (issue 21 item 8): a 3 MB title is input_too_long and nothing is stored; a 40 MB request is answered request_too_large and the server serves on", async () => {
    const before = cli(["task", "ls"]).length;
    const huge = await call("task_new", { title: "t".repeat(3 * 1024 * 1024) });
    expect(errorCodeOf(huge)).toBe("input_too_long");
    expect(huge.structuredContent!.error).toMatchObject({ field: "title", limit: 500 });
    expect(errorCodeOf(await call("reserve", { patterns: Array.from({ length: 101 }, (_, i) => `p${i}`) }))).toBe("input_too_long");
    expect(errorCodeOf(await call("session_new", { prompt: "bounded", name: "n".repeat(101), no_launch: true }))).toBe("input_too_long");
    const flood = await mcp.client.callTool({ name: "task_new", arguments: { title: "x".repeat(40 * 1024 * 1024) } }).catch((e: unknown) => e);
    expect(flood).toBeInstanceOf(McpError);
    expect((flood as McpError).code).toBe(-32600);
    expect((flood as McpError).message).toContain("[request_too_large]");
    // Still serving, and nothing was stored.
    expect((await ok("task_list")).length).toBe(before);
    expect(cli(["task", "ls"]).length).toBe(before);
  });

  test("every tool was called above", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).filter((n) => !called.has(n))).toEqual([]);
    expect(mcp.stderr()).toBe("");
  });
});
