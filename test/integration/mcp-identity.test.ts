// Who `spex mcp` acts for (DESIGN.md §13: values from the environment are
// validated before they become paths): SPEX_SESSION_ID must be a session id
// and a record of this very project, checked at every call. Anything else is
// no caller: reads answer, acting as a session is refused, nothing is written.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { connectMcp, errorCodeOf, jsonOf } from "../support/mcp";
import { type Sandbox, makeRepo, sandbox, waitFor } from "../support/sandbox";

let sb: Sandbox;
let alpha: string;

function cli(args: string[], cwd?: string): any {
  const r = sb.spex([...args, "--json"], { cwd });
  if (r.code !== 0) throw new Error(`spex ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

beforeAll(() => {
  sb = sandbox();
  alpha = cli(["session", "new", "--launcher", "shell", "--no-launch", "--name", "alpha", "a session"]).session_id;
  cli(["task", "new", "the only task"]);
});
afterAll(() => sb.cleanup());

async function refusedAs(env: Record<string, string>, why: RegExp, cwd?: string): Promise<void> {
  const mcp = await connectMcp(sb, { env, cwd });
  try {
    // Reads still answer.
    expect(jsonOf(await mcp.call("task_list")).map((t: any) => t.id)).toEqual(["t1"]);
    const r = await mcp.call("task_claim");
    expect(errorCodeOf(r)).toBe("caller_required");
    expect(r.content[0]!.text).toMatch(why);
    expect(errorCodeOf(await mcp.call("session_done", { propose: "close" }))).toBe("caller_required");
    expect(errorCodeOf(await mcp.call("reserve", { patterns: ["src"] }))).toBe("caller_required");
  } finally {
    await mcp.close();
  }
  // Nothing was claimed or reserved in anyone's name.
  expect(cli(["task", "ls"])[0]).toMatchObject({ state: "pending", owner: "" });
  expect(cli(["reserve", "ls"])).toEqual([]);
}

describe("the caller of spex mcp", () => {
  test("a SPEX_SESSION_ID that is a path is no caller, and no path is made from it", async () => {
    const escape = join(sb.dir, "escaped");
    await refusedAs({ SPEX_SESSION_ID: `../../../../..${escape}` }, /is not a session id/);
    expect(existsSync(escape)).toBe(false);
    const [key] = readdirSync(join(sb.home, "projects"));
    expect(readdirSync(join(sb.home, "projects", key!, "sessions"))).toEqual([alpha]);
  });

  test("a session id with no record here (made up, or upper-cased) is no caller", async () => {
    await refusedAs({ SPEX_SESSION_ID: "0f0f0f0f-1111-4222-8333-444444444444" }, /is not a session of /);
    await refusedAs({ SPEX_SESSION_ID: alpha.toUpperCase() }, /is not a session id/);
  });

  test("a session of another project (same SPEX_HOME) is no caller here", async () => {
    const other = makeRepo(join(sb.dir, "other"), sb.env);
    const foreign = cli(["session", "new", "--launcher", "shell", "--no-launch", "a session elsewhere"], other).session_id;
    await refusedAs({ SPEX_SESSION_ID: foreign }, /is not a session of /);
    // In its own project the same id acts.
    const home = await connectMcp(sb, { env: { SPEX_SESSION_ID: foreign }, cwd: other });
    try {
      expect(errorCodeOf(await home.call("task_claim"))).toBe("no_claimable_task");
    } finally {
      await home.close();
    }
  });

  test("a session closed while its server runs stops being the caller at the next call", async () => {
    const doomed = cli(["session", "new", "--launcher", "shell", "--no-launch", "--name", "doomed", "closed soon"]).session_id;
    const mcp = await connectMcp(sb, { env: { SPEX_SESSION_ID: doomed } });
    try {
      expect(jsonOf(await mcp.call("reserve", { patterns: ["docs"] })).reserved).toHaveLength(1);
      cli(["session", "close", doomed]);
      const r = await mcp.call("task_claim");
      expect(errorCodeOf(r)).toBe("caller_required");
      expect(r.content[0]!.text).toContain("is not a session of");
      expect(cli(["task", "ls"])[0].owner).toBe("");
    } finally {
      await mcp.close();
    }
  });

  test("the server ends when its client goes, even with a session_wait parked for minutes", async () => {
    const other = cli(["session", "new", "--launcher", "shell", "--no-launch", "waited on"]).session_id;
    const mcp = await connectMcp(sb, { env: { SPEX_SESSION_ID: alpha } });
    const pid = mcp.transport.pid!;
    let settled = false;
    const parked = mcp.call("session_wait", { sessions: [other], timeout_seconds: 290 }).then(() => (settled = true), () => (settled = true));
    // The wait is in flight once the server answers a later call.
    expect(jsonOf(await mcp.call("task_list"))).toHaveLength(1);
    expect(settled).toBe(false);
    // Only stdin is closed (the SDK's close() would also signal the process after 2 s).
    (mcp.transport as unknown as { _process: { stdin: { end(): void } } })._process.stdin.end();
    await waitFor(() => !alive(pid), "the server process to exit on its own", 10000);
    await parked;
    await mcp.close();
  });

  test("a session_wait the client cancels ends without consuming the events it would have returned", async () => {
    const watched = cli(["session", "new", "--launcher", "shell", "--no-launch", "--name", "watched", "waited on"]).session_id as string;
    const armed = join(sb.dir, "wait-armed");
    const mcp = await connectMcp(sb, { env: { SPEX_SESSION_ID: alpha, SPEX_TEST_WAIT_ARMED: armed } });
    try {
      // A wait that returns an event saves the caller's cursor on the watched session.
      const first = mcp.call("session_wait", { sessions: ["watched"], timeout_seconds: 30 });
      await waitFor(() => existsSync(armed), "the first wait to be armed");
      cli(["session", "send", watched, "old news", "--from", "someone", "--queue-only"]);
      expect(jsonOf(await first).outcome).toBe("reached");
      rmSync(armed, { force: true });
      const abort = new AbortController();
      const parked = mcp.client.callTool({ name: "session_wait", arguments: { sessions: ["watched"], timeout_seconds: 120 } }, undefined, { signal: abort.signal }).catch((e: unknown) => e);
      await waitFor(() => existsSync(armed), "the wait to be armed");
      abort.abort();
      expect(await parked).toBeInstanceOf(Error);
      // The cancel notification went out before this ping, so the server has it once the ping is answered.
      await mcp.client.ping();
      // News after the cancel is still news for the caller's next wait.
      const sent = cli(["session", "send", watched, "news after the cancel", "--from", "someone", "--queue-only"]);
      const next = jsonOf(await mcp.call("session_wait", { sessions: ["watched"], timeout_seconds: 5 }));
      expect(next.outcome).toBe("reached");
      expect(next.events.map((e: any) => e.messageId)).toContain(sent.messageId);
    } finally {
      await mcp.close();
    }
  });

  test("the Node bundle serves the same tools", async () => {
    const mcp = await connectMcp(sb, { env: { SPEX_SESSION_ID: alpha }, runner: "node" });
    try {
      expect((await mcp.client.listTools()).tools.length).toBeGreaterThanOrEqual(17);
      expect(jsonOf(await mcp.call("session_show")).id).toBe(alpha);
      expect(mcp.stderr()).toBe("");
    } finally {
      await mcp.close();
    }
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
