// A failed create removes only what it made (DESIGN.md §13): names someone
// else holds — another create, the user's own worktree or folder, a tmux
// session — are passed over or refused, never rolled back.
import { afterEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { sessionIdForKey } from "../../lib/create/create";
import { shortId, slugOf } from "../../lib/naming";
import { projectStore } from "../../lib/store";
import { type Sandbox, sandbox } from "../support/sandbox";
import { http, serve } from "./backend-support";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

function receipts(s: Sandbox): Record<string, any>[] {
  const dir = projectStore(s.repo, s.home).receiptsDir;
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith(".json")).map((n) => JSON.parse(readFileSync(join(dir, n), "utf8"))) : [];
}

/** A create killed right after it wrote its receipt: nothing made yet, its names known. */
function abandonedCreate(s: Sandbox): { worktree: string; branch: string } {
  const r = s.spex(["session", "new", "--no-launch", "--launcher", "shell", "crashy"], { env: { SPEX_TEST_CRASH_AT: "receipt" } });
  expect(r.code).not.toBe(0);
  const [receipt] = receipts(s);
  return { worktree: receipt!.worktree, branch: receipt!.branch };
}

/** The user's own worktree at `path` on `branch`: an unmerged commit and an untracked file. */
function handMadeWorktree(s: Sandbox, path: string, branch: string): string {
  s.git(["worktree", "add", "-q", "-b", branch, path, "main"]);
  writeFileSync(join(path, "mine.txt"), "unmerged work\n");
  s.git(["add", "mine.txt"], path);
  s.git(["commit", "-q", "-m", "mine"], path);
  writeFileSync(join(path, "notes.txt"), "untracked\n");
  return s.git(["rev-parse", branch]).trim();
}

describe("rollback of an abandoned create", () => {
  test("the next command never removes a worktree, branch or tmux session that appeared at the dead create's names", () => {
    sb = sandbox();
    const { worktree, branch } = abandonedCreate(sb);
    const head = handMadeWorktree(sb, worktree, branch);
    expect(sb.tmux(["new-session", "-d", "-s", basename(worktree), "sleep 600"]).status).toBe(0);

    const ls = sb.spex(["session", "ls", "--json"]);
    expect(ls.code).toBe(0);
    expect(JSON.parse(ls.stdout)).toEqual([]);
    expect(readFileSync(join(worktree, "mine.txt"), "utf8")).toBe("unmerged work\n");
    expect(readFileSync(join(worktree, "notes.txt"), "utf8")).toBe("untracked\n");
    expect(sb.git(["rev-parse", branch]).trim()).toBe(head);
    expect(sb.tmux(["has-session", "-t", `=${basename(worktree)}`]).status).toBe(0);
    // The receipt itself is settled: it made nothing, so it goes.
    expect(receipts(sb)).toEqual([]);
  });

  test("a plain folder at the dead create's worktree path is left as it is", () => {
    sb = sandbox();
    const { worktree } = abandonedCreate(sb);
    mkdirSync(worktree, { recursive: true });
    writeFileSync(join(worktree, "keep.txt"), "mine\n");
    expect(sb.spex(["session", "ls"]).code).toBe(0);
    expect(readFileSync(join(worktree, "keep.txt"), "utf8")).toBe("mine\n");
    expect(receipts(sb)).toEqual([]);
  });
});

/** `count` idempotency keys whose session ids in this project share their first four hex digits. */
function keysSharingShortId(repo: string, home: string, count: number): { keys: string[]; ids: string[] } {
  const key = projectStore(repo, home).key;
  const buckets = new Map<string, string[]>();
  for (let n = 0; ; n++) {
    const k = `k-${n}`;
    const short = createHash("sha256").update(`${key}\0${k}`).digest("hex").slice(0, 4);
    const bucket = buckets.get(short) ?? [];
    bucket.push(k);
    buckets.set(short, bucket);
    if (bucket.length === count) return { keys: bucket, ids: bucket.map((b) => sessionIdForKey(key, b)) };
  }
}

describe("names already held", () => {
  test("concurrent creates whose ids share the short id each get their own names; none destroys another", async () => {
    sb = sandbox();
    writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ sessions: { maxActive: 50 } }));
    const { keys, ids } = keysSharingShortId(sb.repo, sb.home, 6);
    expect(new Set(ids.map((id) => shortId(id))).size).toBe(1);
    const be = await serve(sb);
    try {
      const body = { prompt: "same words for all", launcher: "shell" };
      const answers = await Promise.all(keys.map((key) => http(be.url, "/api/sessions", { body, key, token: be.token })));
      const created = answers.filter((a) => a.status === 201).map((a) => a.json);
      // Every session that was answered still has its worktree, branch, record and pane.
      const listed = new Set(JSON.parse(sb.spex(["session", "ls", "--json"]).stdout).map((r: any) => r.id));
      for (const c of created) {
        expect({ id: c.session_id, listed: listed.has(c.session_id), worktree: existsSync(join(c.worktree_path, ".git")) }).toEqual({ id: c.session_id, listed: true, worktree: true });
        expect(sb.git(["branch", "--list", c.branch]).trim()).not.toBe("");
        expect(sb.tmux(["has-session", "-t", `=${c.tmux_session}`]).status).toBe(0);
      }
      // And every one of them was answered, each with names of its own.
      expect(answers.map((a) => a.status)).toEqual(keys.map(() => 201));
      expect(new Set(created.map((c) => c.branch)).size).toBe(keys.length);
      expect(new Set(created.map((c) => c.tmux_session)).size).toBe(keys.length);
    } finally {
      await be.stop();
    }
  });

  test("a tmux session already at the computed name is passed over for a longer suffix and keeps running", async () => {
    sb = sandbox();
    const key = "tmux-taken";
    const id = sessionIdForKey(projectStore(sb.repo, sb.home).key, key);
    const prompt = "a pane already there";
    const taken = `${slugOf(prompt)}-${shortId(id)}`;
    expect(sb.tmux(["new-session", "-d", "-s", taken, "sleep 600"]).status).toBe(0);
    const be = await serve(sb);
    try {
      const r = await http(be.url, "/api/sessions", { body: { prompt, launcher: "shell" }, key, token: be.token });
      expect(sb.tmux(["list-panes", "-t", `=${taken}:`, "-F", "#{pane_current_command}"]).stdout.trim()).toBe("sleep");
      expect(r.status).toBe(201);
      expect(r.json.session_id).toBe(id);
      expect(r.json.tmux_session).toBe(`${slugOf(prompt)}-${shortId(id, 12)}`);
    } finally {
      await be.stop();
    }
  });

  test("when every name is held the create refuses with name_collision and removes nothing", async () => {
    sb = sandbox();
    const key = "all-taken";
    const id = sessionIdForKey(projectStore(sb.repo, sb.home).key, key);
    const prompt = "nowhere to go";
    const short = join(sb.repo, ".worktrees", `${slugOf(prompt)}-${shortId(id)}`);
    mkdirSync(short, { recursive: true });
    writeFileSync(join(short, "keep.txt"), "mine\n");
    const longBranch = `spex/${slugOf(prompt)}-${shortId(id, 12)}`;
    const head = handMadeWorktree(sb, join(sb.dir, "elsewhere"), longBranch);
    const be = await serve(sb);
    try {
      const r = await http(be.url, "/api/sessions", { body: { prompt, launcher: "shell" }, key, token: be.token });
      expect(r.json.error.code).toBe("name_collision");
      expect(readFileSync(join(short, "keep.txt"), "utf8")).toBe("mine\n");
      expect(sb.git(["rev-parse", longBranch]).trim()).toBe(head);
      expect(readFileSync(join(sb.dir, "elsewhere", "notes.txt"), "utf8")).toBe("untracked\n");
      expect(receipts(sb)).toEqual([]);
      expect(JSON.parse(sb.spex(["session", "ls", "--json"]).stdout)).toEqual([]);
    } finally {
      await be.stop();
    }
  });
});

describe("a receipt that cannot be settled", () => {
  test("is reported as receipt_stuck and stands in the way of no other session's ls or new", () => {
    sb = sandbox();
    expect(sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "first"]).code).toBe(0);
    // A folder where a receipt file belongs: it can be neither read nor removed.
    const stuck = join(projectStore(sb.repo, sb.home).receiptsDir, "5a1d3c9e-0000-4000-8000-000000000000.json");
    mkdirSync(join(stuck, "inside"), { recursive: true });
    writeFileSync(join(stuck, "inside", "x"), "x");

    const ls = sb.spex(["session", "ls", "--json"]);
    expect(ls.stderr).toContain(stuck);
    expect(ls.stderr).toContain("[receipt_stuck]");
    expect(ls.code).toBe(0);
    expect(JSON.parse(ls.stdout)).toHaveLength(1);
    const second = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "second"]);
    expect(second.stderr).toContain("[receipt_stuck]");
    expect(second.code).toBe(0);
    expect(JSON.parse(sb.spex(["session", "ls", "--json"]).stdout)).toHaveLength(2);
    const doctor = JSON.parse(sb.spex(["doctor", "--json"]).stdout);
    expect(doctor.orphans.abandonedCreates.join("\n")).toContain(stuck);
    // A folder where a receipt belongs is not spex's: shown, never advised away (DESIGN.md §14).
    const advice = doctor.cleanup.find((c: any) => c.kind === "abandonedCreates");
    expect([advice.action, advice.command]).toEqual(["inspect", `ls -la ${stuck}`]);
    expect(advice.reason).toContain("not a receipt spex wrote");
    expect(sb.spex(["doctor"]).stdout).not.toContain("rm -rf");
    expect(ls.stderr).not.toContain(`remove ${stuck}`);
    // Reported, never removed.
    expect(readFileSync(join(stuck, "inside", "x"), "utf8")).toBe("x");
  });
});
