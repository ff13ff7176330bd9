// Issue 28.6: what an `ls` row says. A proposal whose agent died shows both
// (`review · offline`); a merge without --close shows `merged` until the
// branch moves on; an unnamed session's title is shown once; an AGE column.
// --json keeps every field and adds `merged`.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, renameSync, symlinkSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { projectStore, sessionPaths } from "../../lib/store";
import { type Sandbox, sandbox } from "../support/sandbox";
import { seedRecord } from "../support/records";
import { commitFiles, newSession } from "../support/review";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

/** The table line of a session (piped: not coloured, not cut). */
function lineOf(id: string): string {
  const r = sb.spex(["session", "ls", "--all"]);
  expect(r.code).toBe(0);
  return r.stdout.split("\n").find((l) => l.startsWith(id.slice(0, 8)))!;
}
const rowOf = (id: string) => (JSON.parse(sb.spex(["session", "ls", "--all", "--json"]).stdout) as any[]).find((r) => r.id === id);

describe("ls rows", () => {
  test("a merge proposal whose agent is gone reads `review · offline`; the JSON keeps display and liveness as they were", () => {
    sb = sandbox();
    const rec = seedRecord(sb.home, sb.repo, { prompt: "fix it", status: "awaiting", proposal: "merge", agent_pid: "999999", agent_start: "1" });
    expect(lineOf(rec.session_id)).toMatch(/^\w{8} +review · offline +/);
    expect(rowOf(rec.session_id)).toMatchObject({ display: "review", liveness: "offline", merged: false });
  });

  test("after a merge without --close the row says merged, until the branch has commits of its own again", () => {
    sb = sandbox();
    const s = newSession(sb, "write the greeting");
    commitFiles(sb, s.worktree, { "hello.txt": "hi\n" }, "say hi");
    expect(lineOf(s.id)).not.toContain("merged");
    expect(rowOf(s.id).merged).toBe(false);
    expect(sb.spex(["session", "merge", s.id]).code).toBe(0);
    expect(lineOf(s.id)).toMatch(/^\w{8} +offline · merged +/);
    expect(rowOf(s.id).merged).toBe(true);
    expect(JSON.parse(sb.spex(["session", "show", s.id, "--json"]).stdout).merged).toBe(true);
    commitFiles(sb, s.worktree, { "more.txt": "more\n" }, "more work");
    expect(lineOf(s.id)).not.toContain("merged");
    expect(rowOf(s.id).merged).toBe(false);
  });

  test("a merged proposal reads merged rather than review", () => {
    sb = sandbox();
    const s = newSession(sb, "write the greeting");
    commitFiles(sb, s.worktree, { "hello.txt": "hi\n" }, "say hi");
    expect(sb.spex(["session", "done", "--session", s.id, "--propose", "merge"]).code).toBe(0);
    expect(sb.spex(["session", "merge", s.id]).code).toBe(0);
    expect(lineOf(s.id)).toMatch(/^\w{8} +merged · offline +/);
  });

  test("an unnamed session shows its title once: LABEL has the first line, PROMPT the rest", () => {
    sb = sandbox();
    const two = seedRecord(sb.home, sb.repo, { prompt: "fix the [[auth]] token refresh\nand add a test for it" });
    const one = seedRecord(sb.home, sb.repo, { prompt: "echo hello" });
    const named = seedRecord(sb.home, sb.repo, { prompt: "tidy the docs", name: "tidier" });
    expect(lineOf(two.session_id)).toMatch(/ fix the auth token refresh +spex\/auth-\w{4} +and add a test for it$/);
    expect(lineOf(one.session_id)).toMatch(/ echo hello +spex\/echo-hello-\w{4}$/);
    expect(lineOf(named.session_id)).toMatch(/ tidier +spex\/tidy-the-docs-\w{4} +tidy the docs$/);
    // The JSON is unchanged: the preview is whole.
    expect(rowOf(two.session_id).preview).toBe("fix the [[auth]] token refresh and add a test for it");
  });

  test("a listing of many keeps a corrupt row for a record reached through a linked folder, a linked record and a fifo, and reads the rest", () => {
    sb = sandbox();
    const store = projectStore(sb.repo, sb.home);
    const seeded = Array.from({ length: 12 }, (_, i) => seedRecord(sb.home, sb.repo, { prompt: `task ${i}`, name: `task-${i}` }));
    // A session folder moved elsewhere and linked back: its record names its own id, only the link is wrong.
    const linkedFolder = seeded[3]!.session_id;
    const elsewhere = join(sb.dir, "elsewhere");
    mkdirSync(elsewhere);
    renameSync(sessionPaths(store, linkedFolder).dir, join(elsewhere, linkedFolder));
    symlinkSync(join(elsewhere, linkedFolder), sessionPaths(store, linkedFolder).dir);
    // A record that is a link to a copy of itself, and one that is a fifo.
    const linkedRecord = seeded[5]!.session_id;
    const record = sessionPaths(store, linkedRecord).record;
    renameSync(record, join(sb.dir, "copy.json"));
    symlinkSync(join(sb.dir, "copy.json"), record);
    const fifo = seeded[8]!.session_id;
    renameSync(sessionPaths(store, fifo).record, join(sb.dir, "fifo-was.json"));
    expect(spawnSync("mkfifo", [sessionPaths(store, fifo).record]).status).toBe(0);
    const r = sb.spex(["session", "ls", "--all", "--json"]);
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as any[];
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(linkedFolder)).toMatchObject({ display: "corrupt", error: expect.stringMatching(/folder .* is a symbolic link/) });
    expect(byId.get(linkedRecord)).toMatchObject({ display: "corrupt", error: "session.json is a symbolic link" });
    expect(byId.get(fifo)).toMatchObject({ display: "corrupt", error: "session.json is a fifo, not a regular file" });
    const fine = seeded.filter((s) => ![linkedFolder, linkedRecord, fifo].includes(s.session_id));
    expect(fine.map((s) => byId.get(s.session_id)?.name)).toEqual(fine.map((s) => s.name));
    expect(rows).toHaveLength(12);
  });

  test("an AGE column counts from creation", () => {
    sb = sandbox();
    const at = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
    const hours = seedRecord(sb.home, sb.repo, { prompt: "three hours", createdAt: at(3 * 3600_000 + 60_000) });
    const days = seedRecord(sb.home, sb.repo, { prompt: "four days", createdAt: at(4 * 86400_000 + 60_000) });
    const out = sb.spex(["session", "ls"]).stdout;
    expect(out.split("\n")[0]).toMatch(/^ID +STATUS +AGE +LABEL +BRANCH +PROMPT$/);
    expect(lineOf(hours.session_id)).toMatch(/^\w{8} +offline +3h +three hours /);
    expect(lineOf(days.session_id)).toMatch(/^\w{8} +offline +4d +four days /);
  });
});
