// kill -9 part way through `session close` (DESIGN.md §6): whatever step it
// dies at, the next ls says what is left, and a second close finishes the job.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox } from "../support/sandbox";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

function projectDir(s: Sandbox): string {
  const [key] = readdirSync(join(s.home, "projects"));
  return join(s.home, "projects", key!);
}

function ls(s: Sandbox): Record<string, any>[] {
  return JSON.parse(s.spex(["session", "ls", "--all", "--json"]).stdout);
}

function newSession(s: Sandbox, prompt: string): { id: string; tmux: string; branch: string; worktree: string } {
  const r = s.spex(["session", "new", "--launcher", "shell", "--json", prompt]);
  expect(r.stderr).toBe("");
  const rec = JSON.parse(r.stdout);
  return { id: rec.session_id, tmux: rec.tmux_session, branch: rec.branch, worktree: rec.worktree_path };
}

/** Nothing of the session is left, and a stale process of it can no longer send. */
function expectFullyClosed(s: Sandbox, made: ReturnType<typeof newSession>): void {
  expect(ls(s)).toEqual([]);
  expect(readdirSync(join(projectDir(s), "sessions"))).toEqual([]);
  expect(existsSync(made.worktree)).toBe(false);
  expect(s.git(["branch", "--list", made.branch]).trim()).toBe("");
  expect(s.tmux(["has-session", "-t", `=${made.tmux}`]).status).not.toBe(0);
  expect(existsSync(join(projectDir(s), "queue", "revoked", made.id))).toBe(true);
}

describe("crash at each close step", () => {
  for (const step of ["close-agent-stopped", "close-tmux-ended", "close-worktree-removed", "close-branch-deleted"]) {
    test(`kill -9 at "${step}" keeps the row, and a second close finishes the job`, () => {
      sb = sandbox();
      const made = newSession(sb, "crashy close");
      const r = sb.spex(["session", "close", made.id], { env: { SPEX_TEST_CRASH_AT: step } });
      expect(r.code).not.toBe(0);
      const rows = ls(sb);
      expect(rows.map((x) => x.session_id ?? x.id)).toEqual([made.id]);
      const again = sb.spex(["session", "close", made.id.slice(0, 8)]);
      expect(again.stderr).toBe("");
      expect(again.code).toBe(0);
      expectFullyClosed(sb, made);
    });
  }

  for (const step of ["close-record-hidden", "close-sender-revoked"]) {
    test(`kill -9 at "${step}" (the record already out of sight): the next close of it finishes the job and says so`, () => {
      sb = sandbox();
      const made = newSession(sb, "crashy close");
      const r = sb.spex(["session", "close", made.id], { env: { SPEX_TEST_CRASH_AT: step } });
      expect(r.code).not.toBe(0);
      expect(ls(sb)).toEqual([]);
      const again = sb.spex(["session", "close", made.id.slice(0, 8)]);
      expect(again.stderr).toBe("");
      expect(again.code).toBe(0);
      expect(again.stdout).toContain(`closed ${made.id.slice(0, 8)}: finished a close that was interrupted`);
      expectFullyClosed(sb, made);
    });
  }

  test("a close of another session also finishes one that was killed after its record went", () => {
    sb = sandbox();
    const made = newSession(sb, "crashy close");
    const other = newSession(sb, "other one");
    expect(sb.spex(["session", "close", made.id], { env: { SPEX_TEST_CRASH_AT: "close-record-hidden" } }).code).not.toBe(0);
    const r = sb.spex(["session", "close", other.id]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(readdirSync(join(projectDir(sb), "sessions"))).toEqual([]);
    expect(existsSync(join(projectDir(sb), "queue", "revoked", made.id))).toBe(true);
  });
});
