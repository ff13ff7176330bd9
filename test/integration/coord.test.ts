// Tasks and file reservations through the built binary (DESIGN.md §9): two
// seeded sessions acting with --session, a real claim race between two
// processes, dependencies, advisory conflicts, expiry, and sessions that vanish.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { seedRecord } from "../support/records";
import { type Sandbox, SPEX_BIN, sandbox, waitFor } from "../support/sandbox";

let sb: Sandbox;
const A = "aaaa1111-0000-4000-8000-00000000000a";
const B = "bbbb2222-0000-4000-8000-00000000000b";

beforeAll(() => {
  sb = sandbox();
  seedRecord(sb.home, sb.repo, { session_id: A, prompt: "session a", name: "alpha" });
  seedRecord(sb.home, sb.repo, { session_id: B, prompt: "session b", name: "beta" });
});
afterAll(() => sb.cleanup());

function json(args: string[]): any {
  const r = sb.spex([...args, "--json"]);
  if (r.code !== 0) throw new Error(`spex ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

function refusal(args: string[]): { code: string; [k: string]: unknown } {
  const r = sb.spex([...args, "--json"]);
  expect(r.code).toBe(1);
  return JSON.parse(r.stdout).error;
}

function run(args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(SPEX_BIN, args, { cwd: sb.repo, env: sb.env });
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout }));
  });
}

describe("tasks", () => {
  test("two processes claiming the same task at once: exactly one wins, the other is told task_held", async () => {
    for (let round = 0; round < 3; round++) {
      const id = json(["task", "new", `race ${round}`]).id as string;
      const [ra, rb] = await Promise.all([run(["task", "claim", id, "--session", A, "--json"]), run(["task", "claim", id, "--session", B, "--json"])]);
      expect([ra.code, rb.code].sort()).toEqual([0, 1]);
      const [winner, loser] = ra.code === 0 ? [ra, rb] : [rb, ra];
      const won = JSON.parse(winner.stdout);
      const lost = JSON.parse(loser.stdout).error;
      expect(won.state).toBe("in_progress");
      expect(lost.code).toBe("task_held");
      expect(lost.holder).toBe(won.owner);
      expect(lost.message).toContain(won.owner === A ? "alpha" : "beta");
      const listed = (json(["task", "ls"]) as any[]).find((t) => t.id === id);
      expect(listed.owner).toBe(won.owner);
    }
  });

  test("a blocked task is refused until its dependency is finished, and only the holder can finish", () => {
    const dep = json(["task", "new", "lay the schema"]).id;
    const next = json(["task", "new", "write the queries", "--depends-on", dep]);
    expect(next.blocked_by).toEqual([dep]);
    const blocked = refusal(["task", "claim", next.id, "--session", B]);
    expect(blocked.code).toBe("task_blocked");
    expect(blocked.blocked_by).toEqual([dep]);
    json(["task", "claim", dep, "--session", A]);
    expect(refusal(["task", "finish", dep, "--session", B]).code).toBe("task_held");
    expect(json(["task", "finish", dep, "--session", A]).state).toBe("done");
    const claimed = json(["task", "claim", next.id, "--session", B]);
    expect(claimed).toMatchObject({ state: "in_progress", owner: B, mine: true, blocked_by: [] });
  });

  test("claim without an id takes the oldest unblocked pending task; rm refuses a task others depend on", () => {
    const first = json(["task", "new", "oldest open"]).id;
    json(["task", "new", "younger", "--depends-on", first]);
    expect(json(["task", "claim", "--session", A]).id).toBe(first);
    expect(refusal(["task", "rm", first]).code).toBe("task_has_dependents");
    expect(json(["task", "rm", first, "--force"]).deleted.id).toBe(first);
  });

  test("the human list shows the owner's label and what blocks each task", () => {
    const r = sb.spex(["task", "ls"]);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toMatch(/^ID\s+STATE\s+OWNER\s+BLOCKED BY\s+TITLE$/);
    expect(r.stdout).toMatch(/in_progress\s+(alpha|beta)\s+race 0/);
  });

  test("a session that does not exist is refused", () => {
    const id = json(["task", "new", "orphan-proof"]).id;
    const r = sb.spex(["task", "claim", id, "--json"], { env: { SPEX_SESSION_ID: "cccc3333-0000-4000-8000-00000000000c" } });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error.code).toBe("session_not_found");
    expect(refusal(["task", "claim", id, "--session", "nobody"]).code).toBe("session_not_found");
  });
});

describe("reservations", () => {
  test("an exclusive lease by A makes B's reserve report a conflict, and B's lease is granted anyway", () => {
    const a = json(["reserve", "src/auth", "--session", A, "--note", "token refresh"]);
    expect(a.reserved).toMatchObject([{ pattern: "src/auth", mode: "exclusive", session_id: A, expires_in: "30m", mine: true }]);
    expect(a.conflicts).toEqual([]);
    const b = json(["reserve", "src/auth/token.ts", "--shared", "--ttl", "45m", "--session", B]);
    expect(b.reserved).toMatchObject([{ pattern: "src/auth/token.ts", mode: "shared", expires_in: "45m" }]);
    expect(b.conflicts).toMatchObject([{ pattern: "src/auth", session_id: A, holder: "alpha", note: "token refresh", mine: false }]);
    const listed = json(["reserve", "ls", "--session", B]) as any[];
    expect(listed.map((l) => [l.pattern, l.mine])).toEqual([
      ["src/auth", false],
      ["src/auth/token.ts", true],
    ]);
    expect(json(["reserve", "release", "--session", B]).released.map((l: any) => l.pattern)).toEqual(["src/auth/token.ts"]);
    expect((json(["reserve", "ls"]) as any[]).map((l) => l.pattern)).toEqual(["src/auth"]);
  });

  test("a lease longer than 4h is refused with ttl_too_long", () => {
    expect(refusal(["reserve", "docs", "--ttl", "5h", "--session", A]).code).toBe("ttl_too_long");
  });

  test("a lease past its TTL disappears", async () => {
    const r = json(["reserve", "tmp/scratch", "--ttl", "1s", "--session", B]);
    expect(r.reserved[0].pattern).toBe("tmp/scratch");
    await waitFor(() => !(json(["reserve", "ls"]) as any[]).some((l) => l.pattern === "tmp/scratch"), "the 1s lease to lapse");
    // Once lapsed it no longer conflicts with anyone.
    expect(json(["reserve", "tmp/scratch", "--session", A]).conflicts).toEqual([]);
  });

  test("leases and claims of a session whose record is gone no longer count", () => {
    const C = "cccc3333-0000-4000-8000-00000000000c";
    seedRecord(sb.home, sb.repo, { session_id: C, prompt: "session c", name: "gamma" });
    json(["reserve", "lib/gone", "--session", C]);
    const task = json(["task", "new", "held by gamma"]).id;
    json(["task", "claim", task, "--session", C]);
    expect((json(["reserve", "ls"]) as any[]).some((l) => l.pattern === "lib/gone")).toBe(true);
    const [key] = readdirSync(join(sb.home, "projects"));
    rmSync(join(sb.home, "projects", key!, "sessions", C), { recursive: true, force: true });
    expect((json(["reserve", "ls"]) as any[]).some((l) => l.pattern === "lib/gone")).toBe(false);
    expect((json(["task", "ls"]) as any[]).find((t) => t.id === task)).toMatchObject({ state: "pending", owner: "" });
    expect(json(["reserve", "lib/gone", "--session", A]).conflicts).toEqual([]);
    expect(json(["task", "claim", task, "--session", A]).owner).toBe(A);
    // Its pane may still carry SPEX_SESSION_ID: reading works, acting is refused.
    expect(sb.spex(["reserve", "ls", "--json"], { env: { SPEX_SESSION_ID: C } }).code).toBe(0);
    const acting = sb.spex(["reserve", "src", "--json"], { env: { SPEX_SESSION_ID: C } });
    expect(acting.code).toBe(1);
    expect(JSON.parse(acting.stdout).error.code).toBe("session_not_found");
  });
});

describe("bounds on what lists carry (issue 21 item 8)", () => {
  const tooLong = (args: string[], input?: string) => {
    const r = sb.spex([...args, "--json"], { input });
    return [r.code, JSON.parse(r.stdout).error?.code];
  };

  test("the CLI and HTTP refuse an over-long title, body, pattern, note, group path or display name with a code, storing nothing", async () => {
    const tasks = json(["task", "ls"]).length;
    const leases = json(["reserve", "ls"]).length;
    expect(tooLong(["task", "new", "t".repeat(501)])).toEqual([2, "input_too_long"]);
    expect(tooLong(["task", "new", "short title", "--body-file", "-"], "b".repeat(70_000))).toEqual([2, "input_too_long"]);
    expect(tooLong(["reserve", "src/" + "p".repeat(5000), "--session", A])).toEqual([2, "input_too_long"]);
    expect(tooLong(["reserve", "src/x", "--note", "n".repeat(2001), "--session", A])).toEqual([2, "input_too_long"]);
    expect(tooLong(["group", "new", "g".repeat(257)])).toEqual([2, "input_too_long"]);
    expect(tooLong(["session", "rename", A, "n".repeat(101)])).toEqual([2, "name_invalid"]);
    // At the limit it is taken, counted in characters (each of these is 4 bytes of UTF-8).
    expect(json(["task", "new", "😀".repeat(500)]).title).toBe("😀".repeat(500));

    const { serve, http } = await import("./backend-support");
    const served = await serve(sb);
    try {
      const post = (path: string, body: unknown) => http(served.url, path, { body, token: served.token });
      const title = await post("/api/tasks", { title: "t".repeat(501) });
      expect([title.status, title.json.error.code, title.json.error.limit]).toEqual([400, "input_too_long", 500]);
      const note = await post("/api/reservations", { session: A, patterns: ["src/y"], note: "n".repeat(2001) });
      expect([note.status, note.json.error.code]).toEqual([400, "input_too_long"]);
    } finally {
      await served.stop();
    }
    expect(json(["task", "ls"]).length).toBe(tasks + 1);
    expect(json(["reserve", "ls"]).length).toBe(leases);
  });
});

test("a declaration's note is bounded as the MCP tools bound it (issue 21 item 8)", () => {
  const r = sb.spex(["session", "park", "--session", A, "--note-file", "-", "--json"], { input: "n".repeat(16_385) });
  expect([r.code, JSON.parse(r.stdout).error.code]).toEqual([2, "input_too_long"]);
  expect(json(["session", "show", A]).record.status).not.toBe("parked");
});
