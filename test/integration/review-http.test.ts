// The review routes over real HTTP (issue 17): GET /api/sessions/:id/diff and
// POST /api/sessions/:id/merge answer only with the token (a caller without it
// learns nothing and merges nothing), and give the CLI's JSON and codes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox } from "../support/sandbox";
import { commitFiles, newSession, refOf } from "../support/review";
import { type Served, http, serve } from "./backend-support";

let sb: Sandbox;
let be: Served;

beforeAll(async () => {
  sb = sandbox();
  writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ sessions: { maxActive: 50 } }));
  be = await serve(sb);
});

afterAll(async () => {
  await be?.stop();
  sb?.cleanup();
});

describe("GET /api/sessions/:id/diff", () => {
  test("needs the token; with it, the files, counts and patch", async () => {
    const s = newSession(sb, "diff over http", []);
    commitFiles(sb, s.worktree, { "secret-feature.txt": "the secret line\n" }, "feature");
    for (const token of [undefined, "f".repeat(64)]) {
      const r = await http(be.url, `/api/sessions/${s.id}/diff`, { token });
      expect(r.status).toBe(401);
      expect(r.text).not.toContain("secret");
    }
    const r = await http(be.url, `/api/sessions/${s.id.slice(0, 8)}/diff`, { token: be.token });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ id: s.id, branch: s.branch, into: "main", additions: 1, files: [{ path: "secret-feature.txt", status: "added", additions: 1 }] });
    expect(r.json.patch).toContain("+the secret line");
    const stat = await http(be.url, `/api/sessions/${s.id}/diff?stat=1&worktree=1`, { token: be.token });
    expect(stat.json.patch).toBeUndefined();
    expect(stat.json.stat).toContain("secret-feature.txt");
    expect((await http(be.url, `/api/sessions/${s.id}/diff?stat=maybe`, { token: be.token })).json.error.code).toBe("query_invalid");
  });
});

describe("GET /api/sessions/:id/diff of a branch with a huge file", () => {
  test("a file past the text limit is listed as binary, none of its text is read into the patch, and the answer stays small", async () => {
    const s = newSession(sb, "an agent committed its log", []);
    // 20 MiB of text: one line per row of a log an agent left behind, with a small real change beside it.
    const log = Array.from({ length: 300_000 }, (_, i) => `row ${i} ${"x".repeat(60)}`).join("\n") + "\n";
    commitFiles(sb, s.worktree, { "run.log": log, "fix.txt": "the fix\n" }, "a fix and a log");
    const r = await http(be.url, `/api/sessions/${s.id}/diff`, { token: be.token });
    expect(r.status).toBe(200);
    const files = (r.json.files as { path: string; binary: boolean; additions: number }[]).sort((a, b) => a.path.localeCompare(b.path));
    expect(files).toEqual([
      expect.objectContaining({ path: "fix.txt", binary: false, additions: 1 }),
      expect.objectContaining({ path: "run.log", binary: true, additions: 0 }),
    ]);
    expect(r.json.additions).toBe(1);
    expect(r.json.patch).toContain("+the fix");
    expect(r.json.patch).not.toContain("row 1 ");
    expect(r.text.length).toBeLessThan(10_000);
    // The CLI shows the same.
    const cli = sb.spex(["session", "diff", s.id, "--stat"]);
    expect(cli.stdout).toContain("run.log");
    expect(cli.stdout).toContain("Bin");
  });
});

describe("POST /api/sessions/:id/merge", () => {
  test("without the token nothing merges; with it the branch lands and the session closes", async () => {
    const s = newSession(sb, "merge over http", []);
    const tip = commitFiles(sb, s.worktree, { "landed.txt": "landed\n" }, "land me");
    const main = refOf(sb, "refs/heads/main");
    for (const token of [undefined, "f".repeat(64)]) {
      const r = await http(be.url, `/api/sessions/${s.id}/merge`, { body: { close: true }, token });
      expect(r.status).toBe(401);
    }
    expect(refOf(sb, "refs/heads/main")).toBe(main);
    const r = await http(be.url, `/api/sessions/${s.id}/merge`, { body: { close: true }, token: be.token });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ landing: "fast-forward", after: tip, closed: true, close: { worktree: "removed", branch: "deleted" } });
    expect(refOf(sb, "refs/heads/main")).toBe(tip);
    expect((await http(be.url, `/api/sessions/${s.id}`, { token: be.token })).status).toBe(404);
  });

  test("a conflict is a 409 merge_conflict naming the files; unknown fields and strategies are 400", async () => {
    const s = newSession(sb, "conflict over http", []);
    commitFiles(sb, s.worktree, { "README.md": "# session side\n" }, "session side");
    const moved = commitFiles(sb, sb.repo, { "README.md": "# main side\n" }, "main side");
    const r = await http(be.url, `/api/sessions/${s.id}/merge`, { body: { strategy: "squash" }, token: be.token });
    expect(r.status).toBe(409);
    expect(r.json.error).toMatchObject({ code: "merge_conflict", files: ["README.md"] });
    expect(refOf(sb, "refs/heads/main")).toBe(moved);
    expect((await http(be.url, `/api/sessions/${s.id}/merge`, { body: { strategy: "octopus" }, token: be.token })).json.error.code).toBe("field_invalid");
    expect((await http(be.url, `/api/sessions/${s.id}/merge`, { body: { force: true }, token: be.token })).json.error.code).toBe("unknown_field");
  });

  test("uncommitted work: 409 worktree_dirty, then includeUncommitted commits and lands it", async () => {
    const s = newSession(sb, "dirty over http", []);
    writeFileSync(join(s.worktree, "wip.txt"), "wip\n");
    const refused = await http(be.url, `/api/sessions/${s.id}/merge`, { body: {}, token: be.token });
    expect([refused.status, refused.json.error.code]).toEqual([409, "worktree_dirty"]);
    const r = await http(be.url, `/api/sessions/${s.id}/merge`, { body: { includeUncommitted: true, message: "wip landed" }, token: be.token });
    expect(r.status).toBe(200);
    expect(r.json.workCommit).toMatch(/^[0-9a-f]{40}$/);
    expect(sb.git(["show", "main:wip.txt"])).toBe("wip\n");
  });
});
