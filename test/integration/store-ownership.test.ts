// Issue 10, "never touch what is not ours", the store's half: a record is the
// record of its folder (item 3), ids are ids before they are paths (5), two
// repositories never share a store (6), names never shadow ids or branches
// (8), bytes are never repaired (10), one bad record does not stop the
// project (11). Each test stages the attack the issue reproduced.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { emptyRecord, writeRecordFile } from "../../lib/record";
import { legacyProjectKey, projectStore, sessionPaths } from "../../lib/store";
import { SPEX_BIN, type Sandbox, makeRepo, sandbox } from "../support/sandbox";
import { http, serve } from "./backend-support";

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

interface Made {
  session_id: string;
  branch: string;
  worktree_path: string;
  name: string;
}

function json(stdout: string): any {
  return JSON.parse(stdout);
}

function made(prompt: string, opts: { cwd?: string; name?: string } = {}): Made {
  const args = ["session", "new", "--no-launch", "--launcher", "shell", "--json", prompt];
  if (opts.name) args.push("--name", opts.name);
  const r = sb.spex(args, { cwd: opts.cwd });
  if (r.code !== 0) throw new Error(`new ${prompt}: ${r.stderr}`);
  return json(r.stdout);
}

function recordPath(id: string, root = sb.repo): string {
  return sessionPaths(projectStore(root, sb.home), id).record;
}

function rows(cwd = sb.repo): any[] {
  const r = sb.spex(["session", "ls", "--all", "--json"], { cwd });
  if (r.code !== 0) throw new Error(`ls: ${r.stderr}`);
  return json(r.stdout);
}

function refusedWith(r: { code: number; stdout: string; stderr: string }, code: string): void {
  expect({ exit: r.code === 0 ? 0 : "refused", stderr: r.stderr.match(/\[([a-z_]+)\]\n$/)?.[1] }).toEqual({ exit: "refused", stderr: code });
}

describe("a record is the record of its folder (item 3)", () => {
  test("A's session.json linked to B's: ls shows B once and A corrupt; rename and close of A refuse and B keeps its record, worktree and branch", () => {
    const a = made("session a");
    const b = made("session b");
    rmSync(recordPath(a.session_id));
    symlinkSync(recordPath(b.session_id), recordPath(a.session_id));
    const bBytes = readFileSync(recordPath(b.session_id));

    const listed = rows();
    expect(listed.filter((r) => r.id === b.session_id)).toHaveLength(1);
    expect(listed.find((r) => r.id === a.session_id)).toMatchObject({ kind: "corrupt", display: "corrupt" });
    expect(listed.find((r) => r.id === a.session_id).error).toMatch(/symbolic link/);

    refusedWith(sb.spex(["session", "rename", a.session_id, "through-the-link"]), "record_corrupt");
    refusedWith(sb.spex(["session", "close", a.session_id]), "record_corrupt");
    refusedWith(sb.spex(["session", "close", a.session_id, "--force"]), "record_corrupt");
    refusedWith(sb.spex(["internal", "session-state", "active", "--session", a.session_id]), "record_corrupt");

    expect(readFileSync(recordPath(b.session_id)).equals(bBytes)).toBe(true);
    expect(existsSync(b.worktree_path)).toBe(true);
    expect(sb.git(["branch", "--list", b.branch]).trim()).not.toBe("");
    expect(lstatSync(recordPath(a.session_id)).isSymbolicLink()).toBe(true);
  });

  test("a copy of B's record in A's folder reads corrupt (its id is not the folder's) and nothing writes it", () => {
    const a = made("session a");
    const b = made("session b");
    writeFileSync(recordPath(a.session_id), readFileSync(recordPath(b.session_id)));
    const copied = readFileSync(recordPath(a.session_id));
    expect(rows().find((r) => r.id === a.session_id)).toMatchObject({ kind: "corrupt" });
    expect(rows().filter((r) => r.kind === "ok" && r.id === b.session_id)).toHaveLength(1);
    refusedWith(sb.spex(["session", "park", "--session", a.session_id, "--note", "x"]), "record_corrupt");
    expect(readFileSync(recordPath(a.session_id)).equals(copied)).toBe(true);
  });
});

describe("ids from the environment, argv, payloads and URLs are ids (item 5)", () => {
  test("SPEX_SESSION_ID=../../<other project>/sessions/<id> reaches no other project's record", () => {
    const otherRepo = makeRepo(join(sb.dir, "other"), sb.env);
    const victim = made("the other project's session", { cwd: otherRepo });
    const file = recordPath(victim.session_id, otherRepo);
    const before = readFileSync(file);
    const otherKey = projectStore(otherRepo, sb.home).key;
    const traversal = `../../${otherKey}/sessions/${victim.session_id}`;

    const park = sb.spex(["session", "park", "--note", "hijacked"], { env: { SPEX_SESSION_ID: traversal } });
    refusedWith(park, "session_not_found");
    // The hook path never fails the agent, and writes nothing either.
    const hook = sb.spex(["internal", "hook", "claude", "turn", "UserPromptSubmit"], { env: { SPEX_SESSION_ID: traversal, SPEX_PROJECT_ROOT: sb.repo }, input: "{}" });
    expect(hook.code).toBe(0);
    for (const verb of [["task", "new", "x"], ["session", "wait", "--timeout", "0"]]) {
      refusedWith(sb.spex(verb, { env: { SPEX_SESSION_ID: traversal } }), "session_not_found");
    }
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(readdirSync(join(sb.home, "projects", otherKey, "sessions", victim.session_id)).filter((n) => n.includes("tmp"))).toEqual([]);
  });

  test("an argv selector or an HTTP path that spells a path names no session", async () => {
    const otherRepo = makeRepo(join(sb.dir, "other"), sb.env);
    const victim = made("the other project's session", { cwd: otherRepo });
    const before = readFileSync(recordPath(victim.session_id, otherRepo));
    const traversal = `../../${projectStore(otherRepo, sb.home).key}/sessions/${victim.session_id}`;
    made("a session here");
    refusedWith(sb.spex(["session", "rename", traversal, "hijacked"]), "session_not_found");
    const be = await serve(sb);
    try {
      const r = await http(be.url, `/api/sessions/${encodeURIComponent(traversal)}/rename`, { body: { name: "hijacked" }, token: be.token });
      expect({ status: r.status, code: r.json.error.code }).toEqual({ status: 404, code: "session_not_found" });
    } finally {
      await be.stop();
    }
    expect(readFileSync(recordPath(victim.session_id, otherRepo)).equals(before)).toBe(true);
  });

  test("a hook payload's session id is recorded only when it is a plain token, never an option or a path", () => {
    const a = made("hooked");
    const env = { SPEX_SESSION_ID: a.session_id, SPEX_PROJECT_ROOT: sb.repo };
    for (const bad of ["--dangerously-skip-permissions", "../../x", "a b", "-c"]) {
      expect(sb.spex(["internal", "hook", "claude", "start", "SessionStart"], { env, input: JSON.stringify({ session_id: bad }) }).code).toBe(0);
      expect(json(sb.spex(["session", "show", a.session_id, "--json"]).stdout).record.harness_session_id).not.toBe(bad);
    }
    sb.spex(["internal", "hook", "codex", "start", "SessionStart"], { env, input: JSON.stringify({ session_id: "019a-codex-thread" }) });
    expect(json(sb.spex(["session", "show", a.session_id, "--json"]).stdout).record.harness_session_id).toBe("019a-codex-thread");
  });
});

describe("two repositories never share a store (item 6)", () => {
  test("/x/pk.x and /x/pk-x each see only their own sessions", () => {
    const dot = makeRepo(join(sb.dir, "pk.x"), sb.env);
    const dash = makeRepo(join(sb.dir, "pk-x"), sb.env);
    const inDot = made("made in pk.x", { cwd: dot });
    const inDash = made("made in pk-x", { cwd: dash });
    expect(rows(dot).map((r) => r.id)).toEqual([inDot.session_id]);
    expect(rows(dash).map((r) => r.id)).toEqual([inDash.session_id]);
    const hint = sb.spex(["session", "close", inDash.session_id], { cwd: dot });
    refusedWith(hint, "session_not_found");
    expect(existsSync(inDash.worktree_path)).toBe(true);
  });

  test("a store made under the old key is still found: ls, rename and new work on it", () => {
    const id = "01d5e551-0000-4000-8000-000000000001";
    const legacy = join(sb.home, "projects", legacyProjectKey(sb.repo));
    mkdirSync(join(legacy, "sessions", id), { recursive: true });
    writeRecordFile(join(legacy, "sessions", id, "session.json"), { ...emptyRecord(id), project_root: sb.repo, worktree_path: sb.repo, title: "made before the key changed" });
    expect(rows().map((r) => r.id)).toEqual([id]);
    expect(sb.spex(["session", "rename", id, "still-mine"]).code).toBe(0);
    const fresh = made("made after");
    expect(rows().map((r) => r.id).sort()).toEqual([id, fresh.session_id].sort());
    expect(json(readFileSync(join(legacy, "sessions", id, "session.json"), "utf8")).name).toBe("still-mine");
  });
});

describe("names never shadow ids or branches (item 8)", () => {
  test("rename to another session's short id, name or branch is refused and every selector keeps its session", () => {
    const a = made("session a", { name: "alpha" });
    const b = made("session b", { name: "bravo" });
    const bShort = b.session_id.slice(0, 8);
    const rename = (name: string) => sb.spex(["session", "rename", a.session_id, name]);
    expect(rename(bShort).code).toBe(2);
    refusedWith(rename(bShort), "name_invalid");
    refusedWith(rename(b.session_id.replace(/-/g, "").slice(0, 12)), "name_invalid");
    refusedWith(rename("bravo"), "name_taken");
    refusedWith(rename(b.branch), "name_taken");
    for (const sel of [bShort, "bravo", b.branch]) expect(json(sb.spex(["session", "show", sel, "--json"]).stdout).id).toBe(b.session_id);
    expect(json(sb.spex(["session", "show", a.session_id, "--json"]).stdout).name).toBe("alpha");
    // Its own name and branch stay free for itself; a name with a letter past f is fine.
    expect(rename(a.branch).code).toBe(0);
    expect(rename("cafe-fixer").code).toBe(0);
  });

  test("new --name with a taken or id-shaped name makes nothing", () => {
    const b = made("session b", { name: "bravo" });
    const before = sb.git(["branch", "--list"]);
    for (const [name, code] of [["bravo", "name_taken"], [b.branch, "name_taken"], ["deadbeef", "name_invalid"]] as const) {
      refusedWith(sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--name", name, "another"]), code);
    }
    expect(rows()).toHaveLength(1);
    expect(sb.git(["branch", "--list"])).toBe(before);
  });

  test("twelve sessions renamed to one name at once: exactly one gets it", async () => {
    const fleet = Array.from({ length: 12 }, (_, i) => made(`fleet member ${i}`));
    const runs = fleet.map(
      (s) =>
        new Promise<{ code: number | null; stderr: string }>((resolve) => {
          const p = spawn(SPEX_BIN, ["session", "rename", s.session_id, "the-one"], { cwd: sb.repo, env: sb.env });
          let stderr = "";
          p.stderr.on("data", (d) => (stderr += d));
          p.on("exit", (code) => resolve({ code, stderr }));
        }),
    );
    const results = await Promise.all(runs);
    expect(results.filter((r) => r.code === 0)).toHaveLength(1);
    expect(results.filter((r) => r.code !== 0).every((r) => r.stderr.endsWith("[name_taken]\n"))).toBe(true);
    expect(rows().filter((r) => r.name === "the-one")).toHaveLength(1);
  }, 120000);

  test("the API refuses the same names: 400 name_invalid, 409 name_taken", async () => {
    const a = made("session a");
    const b = made("session b", { name: "bravo" });
    const be = await serve(sb);
    try {
      const rename = (name: string) => http(be.url, `/api/sessions/${a.session_id}/rename`, { body: { name }, token: be.token });
      const shortId = await rename(b.session_id.slice(0, 8));
      expect({ status: shortId.status, code: shortId.json.error.code }).toEqual({ status: 400, code: "name_invalid" });
      const taken = await rename("bravo");
      expect({ status: taken.status, code: taken.json.error.code }).toEqual({ status: 409, code: "name_taken" });
      const create = await http(be.url, "/api/sessions", { body: { prompt: "via the api", launcher: "shell", name: "bravo" }, token: be.token, key: "k-name" });
      expect({ status: create.status, code: create.json.error.code }).toEqual({ status: 409, code: "name_taken" });
    } finally {
      await be.stop();
    }
  });
});

describe("bytes are never repaired (item 10)", () => {
  test("a record with invalid UTF-8 reads corrupt and a rename leaves its bytes exactly", () => {
    const a = made("session a", { name: "before" });
    const bytes = readFileSync(recordPath(a.session_id));
    const at = bytes.indexOf(Buffer.from('"before"')) + 1;
    bytes[at] = 0xc3; // a lead byte followed by ASCII: not UTF-8
    writeFileSync(recordPath(a.session_id), bytes);
    expect(rows().find((r) => r.id === a.session_id)).toMatchObject({ kind: "corrupt" });
    refusedWith(sb.spex(["session", "rename", a.session_id, "after"]), "record_corrupt");
    expect(readFileSync(recordPath(a.session_id)).equals(bytes)).toBe(true);
  });
});

describe("one bad record does not stop the project (item 11)", () => {
  for (const [what, plant] of [
    ["a directory", (f: string) => mkdirSync(f)],
    ["a fifo", (f: string) => spawnSync("mkfifo", [f])],
  ] as const) {
    test(`a session.json that is ${what}: ls keeps its row with the error, selectors skip it unless named by id, new works`, () => {
      const bad = made("broken one", { name: "broken" });
      const good = made("good one", { name: "good" });
      rmSync(recordPath(bad.session_id));
      plant(recordPath(bad.session_id));
      const listed = rows();
      expect(listed.find((r) => r.id === bad.session_id)).toMatchObject({ kind: "corrupt", display: "corrupt", file: recordPath(bad.session_id) });
      expect(listed.find((r) => r.id === good.session_id)).toMatchObject({ kind: "ok", name: "good" });
      expect(sb.spex(["session", "ls"]).stdout).toContain(bad.session_id.slice(0, 8));
      expect(json(sb.spex(["session", "show", "good", "--json"]).stdout).id).toBe(good.session_id);
      refusedWith(sb.spex(["session", "show", "broken"]), "session_not_found");
      expect(json(sb.spex(["session", "show", bad.session_id, "--json"]).stdout)).toMatchObject({ kind: "corrupt", id: bad.session_id });
      const next = made("after the bad one");
      expect(rows().map((r) => r.id)).toContain(next.session_id);
    });
  }
});
