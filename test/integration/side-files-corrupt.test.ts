// The side files beside a record (usage.json, budget.json, setup.json,
// included.json, notified.json) are spex's own, but a hand edit, an older
// writer's crash, or an agent that can write the store (the sandbox leaves it
// writable) can leave anything there. Whatever is there costs the row that
// file's extras, never the listing, a verb, or a hang; and a broken notify
// entry in a config never stops `session new`.
import { afterEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claudeProjectName } from "../../lib/attention/usage";
import { projectStore, sessionPaths } from "../../lib/store";
import { seedRecord } from "../support/records";
import { type Sandbox, SPEX_BIN, okJson, sandbox, waitFor } from "../support/sandbox";

let sb: Sandbox | undefined;
afterEach(() => {
  sb?.cleanup();
  sb = undefined;
});

/** A fleet of 50: a Claude session with a transcript of one reply (190 tokens), and 49 shell ones (`shell` the first). */
function fleet(s: Sandbox) {
  const claude = seedRecord(s.home, s.repo, { harness: "claude", launcher: "claude", harness_session_id: crypto.randomUUID(), prompt: "claude work" });
  const shells = Array.from({ length: 49 }, (_, i) => seedRecord(s.home, s.repo, { prompt: `shell work ${i}` }));
  const shell = shells[0]!;
  const all = [claude, ...shells].map((r) => r.session_id).sort();
  const transcript = join(s.env.HOME!, ".claude", "projects", claudeProjectName(claude.worktree_path), `${claude.harness_session_id}.jsonl`);
  mkdirSync(join(transcript, ".."), { recursive: true });
  writeFileSync(transcript, JSON.stringify({ type: "assistant", timestamp: "2026-12-01T10:00:00.000Z", message: { id: "m1", model: "claude-opus-4-8", usage: { input_tokens: 100, output_tokens: 90 } } }) + "\n");
  const dir = (id: string) => sessionPaths(projectStore(s.repo, s.home), id).dir;
  return { claude, shell, all, dir };
}

/** `session ls --json` with a deadline of its own: a hang is a failure, not a stuck suite. */
function lsJson(s: Sandbox): { code: number | null; rows: any[] } {
  const r = spawnSync(SPEX_BIN, ["session", "ls", "--json"], { cwd: s.repo, env: s.env, encoding: "utf8", timeout: 20000 });
  return { code: r.status, rows: r.status === 0 ? JSON.parse(r.stdout) : [] };
}

describe("a side file spex did not write", () => {
  const badUsage = [
    ["a null source", { version: 1, sources: [null], updatedAt: "" }],
    ["null buckets for a day", { version: 1, sources: [{ harness: "claude", nativeId: "x", file: "/nowhere", offset: 0, ino: 0, state: { buckets: { "2026-01-01": null }, recent: [] } }], updatedAt: "" }],
    ["buckets that are a string", { version: 1, sources: [{ harness: "claude", nativeId: "x", file: "/nowhere", offset: 0, ino: 0, state: { buckets: "x", recent: [] } }], updatedAt: "" }],
  ] as const;
  for (const [what, content] of badUsage) {
    test(`usage.json with ${what}: ls keeps every row (no usage on that one), show counts the transcript again`, () => {
      sb = sandbox();
      const s = sb;
      const { claude, all, dir } = fleet(s);
      writeFileSync(join(dir(claude.session_id), "usage.json"), JSON.stringify(content));
      const ls = lsJson(s);
      expect(ls.code).toBe(0);
      expect(ls.rows.map((r) => r.id).sort()).toEqual(all);
      expect(ls.rows.find((r) => r.id === claude.session_id).usage).toBeNull();
      expect(okJson(s.spex(["session", "show", claude.session_id, "--json"])).usage).toMatchObject({ total: 190 });
      expect(lsJson(s).rows.find((r) => r.id === claude.session_id).usage).toMatchObject({ total: 190 });
      expect(s.spex(["session", "ls"]).stdout).not.toContain("NaN");
    });
  }

  test("a fifo as usage.json: ls answers (it does not wait on the fifo) with every row", () => {
    sb = sandbox();
    const s = sb;
    const { claude, shell, all, dir } = fleet(s);
    // The fifo on a row in the middle of the listing too.
    expect(spawnSync("mkfifo", [join(dir(claude.session_id), "usage.json")]).status).toBe(0);
    expect(spawnSync("mkfifo", [join(dir(shell.session_id), "usage.json")]).status).toBe(0);
    const ls = lsJson(s);
    expect(ls.code).toBe(0);
    expect(ls.rows.map((r) => r.id).sort()).toEqual(all);
  });

  test("a folder as budget.json, setup.json or included.json, or an included.json with a null entry: show answers, without those extras", () => {
    sb = sandbox();
    const s = sb;
    const { claude, dir } = fleet(s);
    for (const name of ["budget.json", "setup.json", "included.json"]) mkdirSync(join(dir(claude.session_id), name));
    const shown = s.spex(["session", "show", claude.session_id, "--json"]);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout).budget).toBeNull();
    rmSync(join(dir(claude.session_id), "included.json"), { recursive: true });
    writeFileSync(join(dir(claude.session_id), "included.json"), JSON.stringify({ copied: [], skipped: [null] }));
    rmSync(join(dir(claude.session_id), "budget.json"), { recursive: true });
    writeFileSync(join(dir(claude.session_id), "budget.json"), JSON.stringify({ version: 1, usd: "lots", tokens: null, hard: false }));
    expect(s.spex(["session", "show", claude.session_id, "--json"]).code).toBe(0);
    expect(s.spex(["session", "show", claude.session_id]).code).toBe(0);
    expect(lsJson(s).code).toBe(0);
  });

  test("notified.json whose last is null: the next notification still goes out, and the file is written anew", async () => {
    sb = sandbox();
    const s = sb;
    const log = join(s.dir, "notices.log");
    const sink = join(s.dir, "sink.sh");
    writeFileSync(sink, `#!/bin/sh\ncat >> '${log}'\n`);
    chmodSync(sink, 0o755);
    writeFileSync(join(s.repo, "spexcode.json"), JSON.stringify({ notify: [{ on: ["asking"], command: [sink] }] }));
    const rec = seedRecord(s.home, s.repo, { status: "active" });
    const notified = join(sessionPaths(projectStore(s.repo, s.home), rec.session_id).dir, "notified.json");
    writeFileSync(notified, JSON.stringify({ last: null }));
    expect(s.spex(["session", "ask", "--session", rec.session_id, "--note", "which port?"]).code).toBe(0);
    await waitFor(() => existsSync(log) && readFileSync(log, "utf8").includes("which port?"), "the notification");
    await waitFor(() => typeof JSON.parse(readFileSync(notified, "utf8")).last?.asking === "number", "notified.json written anew");
  });

  test("a notify entry that is wrong in the user's config: session new still makes the session; doctor names the entry", () => {
    sb = sandbox();
    const s = sb;
    writeFileSync(join(s.home, "config.json"), JSON.stringify({ notify: [{ command: ["x"], on: ["finished"] }] }));
    const made = s.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "still made"]);
    expect(made.code).toBe(0);
    expect(okJson(made).session_id).toBeString();
    const check = JSON.parse(s.spex(["doctor", "--json"]).stdout).checks.find((c: any) => c.name === "notifications");
    expect(check.ok).toBe(false);
    expect(check.detail).toContain("finished");
    // A wrong budget default still stops a create: a limit the user set must never be dropped silently.
    writeFileSync(join(s.home, "config.json"), JSON.stringify({ budgets: { default: { usd: -1 } } }));
    const refused = s.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "not made"]);
    expect(refused.code).not.toBe(0);
    expect(JSON.parse(refused.stdout).error.code).toBe("config_invalid");
  });
});
