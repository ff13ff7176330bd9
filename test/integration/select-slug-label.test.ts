// Issue 28.2: what `ls` shows selects. A session's slug (its worktree and tmux
// name, `y-1c47`) selects it, and after every other tier so does a label only
// one session has; a selector that matches nothing names the closest rows.
// Issue 21.5: a name never shadows another session's node or slug.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type Sandbox, sandbox } from "../support/sandbox";
import { seedRecord } from "../support/records";

let sb: Sandbox;
const Y = "7a1c4700-0000-4000-8000-000000000001"; // unnamed, prompt "y": label y, slug y-7a1c
const AUTH = "7b200000-0000-4000-8000-000000000002"; // node auth
const DOCS1 = "7c300000-0000-4000-8000-000000000003"; // titled "tidy the docs"
const DOCS2 = "7d400000-0000-4000-8000-000000000004"; // titled "tidy the docs" too
const NODE = "7e500000-0000-4000-8000-000000000005"; // node "cache", titled "speed"
const TITLED = "7f600000-0000-4000-8000-000000000006"; // titled "cache": its label loses to NODE's node

beforeAll(() => {
  sb = sandbox();
  const seed = (id: string, prompt: string, at: number, extra: Record<string, string> = {}) => {
    const r = seedRecord(sb.home, sb.repo, { session_id: id, prompt, createdAt: `2026-01-01T00:00:0${at}Z`, ...extra });
    return r;
  };
  seed(Y, "y", 1, { tmux_session: "y-7a1c" });
  seed(AUTH, "fix the [[auth]] token refresh", 2, { tmux_session: "auth-7b20" });
  seed(DOCS1, "tidy the docs", 3);
  seed(DOCS2, "tidy the docs", 4);
  seed(NODE, "speed up the [[cache]]", 5, { title: "speed" });
  seed(TITLED, "cache", 6);
});
afterAll(() => sb.cleanup());

function shown(selector: string): { id?: string; error?: any } {
  const out = JSON.parse(sb.spex(["session", "show", selector, "--json"]).stdout);
  return out.error ? { error: out.error } : { id: out.id };
}

describe("what ls shows selects", () => {
  test("an unnamed session's label selects it", () => {
    expect(shown("y").id).toBe(Y);
  });

  test("the worktree and tmux name (the slug) selects it, without the target's colon", () => {
    expect(shown("y-7a1c").id).toBe(Y);
    expect(shown("auth-7b20").id).toBe(AUTH);
  });

  test("a label two sessions share is ambiguous, listing both", () => {
    const e = shown("tidy the docs").error;
    expect(e).toMatchObject({ code: "selector_ambiguous", candidates: [DOCS1, DOCS2] });
  });

  test("the label tier comes after every other: a node wins over another session's title", () => {
    expect(shown("cache").id).toBe(NODE);
  });

  test("a selector that matches nothing names the closest rows with their ids", () => {
    const r = sb.spex(["session", "close", "y-7a1"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no session matches "y-7a1"');
    expect(r.stderr).toContain("the closest: 7a1c4700 (y, spex/y-7a1c)");
    expect(r.stderr).toContain("[session_not_found]");
    expect(shown("atuh").error).toMatchObject({ code: "session_not_found", closest: [AUTH] });
    expect(shown("zzzzzzzz-nothing").error.closest).toBeUndefined();
  });
});

describe("a name never shadows another session's node or slug", () => {
  test("rename to another session's node is name_taken, and the node still selects that session", () => {
    const r = sb.spex(["session", "rename", "y", "auth", "--json"]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: "name_taken", session: AUTH, as: "node" });
    expect(shown("auth").id).toBe(AUTH);
  });

  test("rename to another session's slug is name_taken", () => {
    const r = sb.spex(["session", "rename", DOCS1, "auth-7b20", "--json"]);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: "name_taken", session: AUTH, as: "slug" });
    expect(shown("auth-7b20").id).toBe(AUTH);
  });

  test("new --name with another session's node is refused before anything is made", () => {
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--name", "cache", "--json", "other work"]);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: "name_taken", session: NODE, as: "node" });
  });

  test("a session may carry its own node as its name", () => {
    const r = sb.spex(["session", "rename", AUTH, "auth", "--json"]);
    expect(r.code).toBe(0);
    expect(shown("auth").id).toBe(AUTH);
  });
});
