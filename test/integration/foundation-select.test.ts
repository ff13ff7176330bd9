// Selectors (DESIGN.md §4): full id, unique id prefix, name, node, branch and
// `.`; the agent's own session for declarations.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { seedRecord } from "../support/records";
import { type Sandbox, sandbox } from "../support/sandbox";

let sb: Sandbox;
const A = "abc11111-0000-4000-8000-000000000001";
const B = "abc22222-0000-4000-8000-000000000002";
const C = "def33333-0000-4000-8000-000000000003";
let worktreeC: string;

beforeAll(() => {
  sb = sandbox();
  seedRecord(sb.home, sb.repo, { session_id: A, prompt: "fix [[login-page]] redirect", name: "fixer", createdAt: "2026-01-01T00:00:01Z" });
  seedRecord(sb.home, sb.repo, { session_id: B, prompt: "tidy the docs", createdAt: "2026-01-01T00:00:02Z" });
  // C lives in a real linked worktree so `.` can find it from inside.
  worktreeC = join(sb.repo, ".worktrees", "cache-def3");
  sb.git(["worktree", "add", "-q", "-b", "spex/cache-def3", worktreeC]);
  mkdirSync(join(worktreeC, "src", "deep"), { recursive: true });
  seedRecord(sb.home, sb.repo, { session_id: C, prompt: "speed up the cache", worktree_path: worktreeC, branch: "spex/cache-def3", createdAt: "2026-01-01T00:00:03Z" });
});
afterAll(() => sb.cleanup());

function shownId(selector: string, cwd?: string): string {
  const r = sb.spex(["session", "show", selector, "--json"], { cwd });
  if (r.code !== 0) throw new Error(`show ${selector}: ${r.stderr}`);
  return JSON.parse(r.stdout).id;
}

describe("selectors", () => {
  test("a full id selects its session", () => expect(shownId(C)).toBe(C));
  test("a unique id prefix selects its session", () => {
    expect(shownId("abc1")).toBe(A);
    expect(shownId("def3")).toBe(C);
  });
  test("a display name selects its session", () => expect(shownId("fixer")).toBe(A));
  test("a node selects its session", () => expect(shownId("login-page")).toBe(A));
  test("a branch selects its session", () => expect(shownId("spex/cache-def3")).toBe(C));
  test("`.` selects the session whose worktree holds the current folder, from any depth", () => {
    expect(shownId(".", worktreeC)).toBe(C);
    expect(shownId(".", join(worktreeC, "src", "deep"))).toBe(C);
  });

  test("`.` outside any session worktree fails with session_not_found", () => {
    const r = sb.spex(["session", "show", "."]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\[session_not_found\]\n$/);
  });

  test("an ambiguous prefix fails with selector_ambiguous listing the candidates", () => {
    const r = sb.spex(["session", "show", "abc"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^spex: "abc" matches 2 sessions: .* \[selector_ambiguous\]\n$/);
    expect(r.stderr).toContain("abc11111");
    expect(r.stderr).toContain("abc22222");
    const j = sb.spex(["session", "show", "abc", "--json"]);
    expect(JSON.parse(j.stdout).error).toMatchObject({ code: "selector_ambiguous", candidates: [A, B] });
  });

  test("a selector that matches nothing fails with session_not_found", () => {
    const r = sb.spex(["session", "show", "zzz-nothing", "--json"]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error.code).toBe("session_not_found");
  });

  test("ls takes selectors and lists only those sessions", () => {
    const rows = JSON.parse(sb.spex(["session", "ls", "fixer", "def3", "--json"]).stdout) as { id: string }[];
    expect(rows.map((r) => r.id)).toEqual([A, C]);
  });

  test("rename takes any selector and an empty name clears it", () => {
    expect(sb.spex(["session", "rename", "spex/cache-def3", "cacher"]).code).toBe(0);
    expect(shownId("cacher")).toBe(C);
    expect(sb.spex(["session", "rename", "cacher", ""]).code).toBe(0);
    const shown = JSON.parse(sb.spex(["session", "show", C, "--json"]).stdout);
    expect(shown.name).toBe("");
    expect(shown.label).toBe("speed up the cache");
  });
});

describe("the agent's own session", () => {
  test("a declaration from inside a worktree lands on that worktree's session", () => {
    const r = sb.spex(["session", "park", "--note", "from inside", "--json"], { cwd: join(worktreeC, "src") });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: C, status: "parked", changed: true });
  });

  test("SPEX_SESSION_ID names the session wherever the agent runs", () => {
    const r = sb.spex(["session", "ask", "--note", "which cache?", "--json"], { env: { SPEX_SESSION_ID: B } });
    expect(JSON.parse(r.stdout)).toMatchObject({ id: B, status: "asking" });
  });

  test("an explicit --session wins over SPEX_SESSION_ID", () => {
    const r = sb.spex(["session", "park", "--session", C, "--note", "explicit", "--json"], { env: { SPEX_SESSION_ID: B } });
    expect(JSON.parse(r.stdout)).toMatchObject({ id: C, status: "parked" });
  });

  test("--session takes a selector", () => {
    const r = sb.spex(["session", "done", "--propose", "merge", "--session", "fixer", "--json"]);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: A, status: "awaiting", proposal: "merge" });
    expect(JSON.parse(sb.spex(["session", "show", A, "--json"]).stdout).display).toBe("review");
  });

  test("outside any worktree and without an id, a declaration fails with session_not_found", () => {
    const r = sb.spex(["session", "park", "--note", "lost"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\[session_not_found\]\n$/);
  });

  test("that refusal names the ways to say which session: --session SEL or SPEX_SESSION_ID (these verbs take no selector word)", () => {
    for (const args of [["park", "--note", "lost"], ["done", "--propose", "merge"], ["ask", "--note", "?"], ["done", "--cancel"]]) {
      const r = sb.spex(["session", ...args, "--json"]);
      const hint = JSON.parse(r.stdout).error.hint as string;
      expect({ args, hint: hint.includes("--session SEL") && hint.includes("SPEX_SESSION_ID") }).toEqual({ args, hint: true });
    }
  });
});
