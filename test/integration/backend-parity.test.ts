// HTTP parity (issue 13, item 9): tasks, reservations, groups, terminals, the
// snapshot, screen reads, archive restore and quarantine over the API answer
// what the CLI's --json prints, and refuse with the same codes. Real HTTP
// against `spex serve`, real tmux, the built binary on both sides.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { BUN, FAKE_COMPOSER } from "../support/comms";
import { type LiveSession, recordFile, seedLive } from "../support/teardown";
import { type Served, http, serve } from "./backend-support";

setDefaultTimeout(120000);
let sb: Sandbox;
let be: Served;
let a: LiveSession;
let b: LiveSession;

beforeAll(async () => {
  sb = sandbox();
  a = seedLive(sb, { slug: "alpha", command: "sh -c 'echo alpha-screen; exec sleep 1000'" });
  b = seedLive(sb, { slug: "beta", tmux: false });
  be = await serve(sb);
});
afterAll(async () => {
  await be?.stop();
  sb?.cleanup();
});

const cli = (...args: string[]) => {
  const r = sb.spex([...args, "--json"]);
  return { code: r.code, body: JSON.parse(r.stdout || "null") };
};
const api = async (path: string, body?: unknown) => {
  const r = await http(be.url, path, { body, token: be.token });
  return { status: r.status, body: r.json };
};
/** A refusal as each side reports it: [CLI exit code, code] and [HTTP status, code]. */
const codeOf = (r: { body: any }) => r.body?.error?.code;

describe("tasks", () => {
  test("create, claim, finish and delete answer as the CLI does; a held task refuses with task_held on both", async () => {
    const made = await api("/api/tasks", { title: "write the parser", body: "in src/parser.ts", session: "spex/alpha" });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ id: "t1", title: "write the parser", state: "pending", created_by: a.id });
    expect((await api("/api/tasks")).body.tasks).toEqual(cli("task", "ls").body);

    const claimed = await api("/api/tasks/claim", { session: "spex/alpha" });
    expect(claimed).toMatchObject({ status: 200, body: { id: "t1", state: "in_progress", owner: a.id, mine: true, changed: true } });
    const byCli = cli("task", "claim", "t1", "--session", "spex/beta");
    const byApi = await api("/api/tasks/claim", { session: "spex/beta", task: "t1" });
    expect([byCli.code, codeOf(byCli)]).toEqual([1, "task_held"]);
    expect([byApi.status, codeOf(byApi)]).toEqual([409, "task_held"]);
    expect(byApi.body.error.message).toBe(byCli.body.error.message);

    // The acting session is named in the body: never the server's own, never `.`.
    for (const [body, code] of [[{}, "field_required"], [{ session: "." }, "selector_invalid"], [{ session: "nobody-here" }, "session_not_found"]] as const) {
      const r = await api("/api/tasks/t1/finish", body);
      expect([r.status, codeOf(r)]).toEqual([code === "session_not_found" ? 404 : 400, code]);
    }
    expect((await api("/api/tasks/t1/finish", { session: a.id })).body).toMatchObject({ id: "t1", state: "done", changed: true });
    const missing = await api("/api/tasks/t9/release", { session: a.id });
    expect([missing.status, codeOf(missing)]).toEqual([404, "task_not_found"]);
    expect([cli("task", "release", "t9", "--session", a.id).body.error.code]).toEqual(["task_not_found"]);
    const untitled = await api("/api/tasks", { title: "" });
    expect([untitled.status, codeOf(untitled)]).toEqual([400, "field_required"]);
    expect((await api("/api/tasks/t1/rm", {})).body).toMatchObject({ deleted: { id: "t1" } });
    expect(cli("task", "ls").body).toEqual([]);
  });
});

describe("reservations and groups", () => {
  test("a lease and its conflict, a bad duration as a usage error on both sides, and its release", async () => {
    const first = await api("/api/reservations", { session: "spex/alpha", patterns: ["src/auth"], note: "refactor" });
    expect(first).toMatchObject({ status: 200, body: { reserved: [{ pattern: "src/auth", mode: "exclusive", session_id: a.id }], conflicts: [] } });
    const second = await api("/api/reservations", { session: "spex/beta", patterns: ["src/auth/login.ts"], shared: true, ttl: "45m" });
    expect(second.body.conflicts).toMatchObject([{ pattern: "src/auth", session_id: a.id }]);
    expect((await api("/api/reservations")).body.reservations.map((l: any) => l.pattern)).toEqual(cli("reserve", "ls").body.map((l: any) => l.pattern));

    const badCli = cli("reserve", "src/x", "--ttl", "soon", "--session", a.id);
    const badApi = await api("/api/reservations", { session: a.id, patterns: ["src/x"], ttl: "soon" });
    expect([badCli.code, codeOf(badCli)]).toEqual([2, "usage"]);
    expect([badApi.status, codeOf(badApi)]).toEqual([400, "usage"]);
    const longApi = await api("/api/reservations", { session: a.id, patterns: ["src/x"], ttl: "5h" });
    expect([longApi.status, codeOf(longApi)]).toEqual([400, codeOf(cli("reserve", "src/x", "--ttl", "5h", "--session", a.id))]);
    const outside = await api("/api/reservations", { session: a.id, patterns: ["../etc"] });
    expect([outside.status, codeOf(outside)]).toEqual([400, "pattern_invalid"]);

    expect((await api("/api/reservations/release", { session: "spex/alpha" })).body.released.map((l: any) => l.pattern)).toEqual(["src/auth"]);
    expect(cli("reserve", "ls").body.map((l: any) => l.pattern)).toEqual(["src/auth/login.ts"]);
  });

  test("groups: made, listed, filled and removed as with the CLI", async () => {
    expect(await api("/api/groups", { path: "fleet", dir: "services" })).toMatchObject({ status: 201, body: { path: "fleet", directory: "services" } });
    const again = await api("/api/groups", { path: "fleet" });
    expect([again.status, codeOf(again)]).toEqual([409, "group_exists"]);
    expect([cli("group", "new", "fleet").body.error.code]).toEqual(["group_exists"]);
    const orphan = await api("/api/groups", { path: "nowhere/child" });
    expect([orphan.status, codeOf(orphan)]).toEqual([409, codeOf(cli("group", "new", "nowhere/child"))]);
    expect((await api("/api/groups/file", { group: "fleet", sessions: ["spex/alpha", b.id] })).body.filed.map((f: any) => f.id).sort()).toEqual([a.id, b.id].sort());
    expect((await api("/api/groups")).body.groups).toEqual(cli("group", "ls").body);
    expect(cli("session", "ls", a.id).body[0].group).toBe("fleet");
    expect((await api("/api/groups/rm", { path: "fleet" })).body).toMatchObject({ removedGroups: ["fleet"] });
    const gone = await api("/api/groups/rm", { path: "fleet" });
    expect([gone.status, codeOf(gone)]).toEqual([404, "group_not_found"]);
  });
});

describe("terminals, reads and the snapshot", () => {
  test("a terminal made, typed into (hostile text as one paste), read and closed over HTTP", async () => {
    const log = join(sb.dir, "api-composer.log");
    const made = await api("/api/terminals", { session: "spex/alpha", name: "composer", command: ["env", "FAKE_NO_STATE=1", `FAKE_LOG=${log}`, BUN, FAKE_COMPOSER] });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: "composer", session: a.id, directory: a.worktree, state: "running" });
    const id = made.body.id;
    await waitFor(async () => /^>/m.test((await api(`/api/terminals/${id}/read`)).body.screen), "the composer's prompt");
    expect((await api("/api/terminals")).body.terminals).toEqual(cli("terminal", "ls").body);
    expect((await api(`/api/terminals?session=${b.id}`)).body.terminals).toEqual([]);

    const sent = await api(`/api/terminals/${id}/send`, { text: "one\u001b[201~\ntwo\r" });
    expect(sent.body).toMatchObject({ id, sent: "text", enter: true });
    await waitFor(() => existsSync(log) && readFileSync(log, "utf8").endsWith("\n"), "the submission, its line whole");
    expect(readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l).text)).toEqual(["one\u241b[201~\ntwo\n"]);
    const keys = await api(`/api/terminals/${id}/send`, { keys: ["-t", "x"] });
    expect([keys.status, codeOf(keys)]).toEqual([400, "usage"]);
    expect((await api(`/api/terminals/${id}/read?history=5`)).body).toEqual(cli("terminal", "read", id, "--history", "5").body);
    const badHistory = await api(`/api/terminals/${id}/read?history=lots`);
    expect([badHistory.status, codeOf(badHistory)]).toEqual([400, "usage"]);

    expect((await api(`/api/terminals/${id}/close`, {})).body).toMatchObject({ id, tmux: "killed", removed: true, closed: true });
    const twice = await api(`/api/terminals/${id}/close`, {});
    expect([twice.status, codeOf(twice)]).toEqual([404, "terminal_not_found"]);
    const nowhere = await api("/api/terminals", { dir: "no/such/dir" });
    expect([nowhere.status, codeOf(nowhere)]).toEqual([400, codeOf(cli("terminal", "new", "--dir", "no/such/dir"))]);
  });

  test("a session's screen and the snapshot are the CLI's documents", async () => {
    await waitFor(async () => (await api(`/api/sessions/${a.id}/read`)).body.screen.includes("alpha-screen"), "the pane to print");
    expect((await api(`/api/sessions/spex%2Falpha/read?styled=1&history=3`)).body).toEqual(cli("session", "read", a.id, "--styled", "--history", "3").body);

    const snapApi = (await api("/api/snapshot")).body;
    const snapCli = cli("snapshot").body;
    const comparable = (s: any) => ({ ...s, generatedAt: "", machine: { ...s.machine, load: [] } });
    expect(comparable(snapApi)).toEqual(comparable(snapCli));
    expect(snapApi.schemaVersion).toBe("spex.snapshot.v1");
    expect(snapApi.sessions.map((r: any) => r.id).sort()).toEqual([a.id, b.id].sort());
  });
});

describe("archive restore and quarantine", () => {
  test("archive with restore un-archives over HTTP as --restore does", async () => {
    expect((await api(`/api/sessions/${b.id}/archive`, {})).body).toMatchObject({ archived: true });
    expect((await api(`/api/sessions/${b.id}/archive`, { restore: true })).body).toEqual({ id: b.id, archived: false, changed: true });
    const both = await api(`/api/sessions/${b.id}/archive`, { restore: true, stop: true });
    expect([both.status, codeOf(both)]).toEqual([400, "usage"]);
    expect(cli("session", "ls", b.id).body[0].archived).toBe(false);
  });

  test("a corrupt record is quarantined and restored over HTTP, with the CLI's refusals", async () => {
    const s = seedLive(sb, { slug: "broken", tmux: false, agent: "none" });
    const file = recordFile(sb, s.id);
    const bytes = readFileSync(file).subarray(0, 40);
    writeFileSync(file, bytes);
    const claim = { id: s.id, adapter: "shell", tmux: s.tmuxName, worktree: s.worktree, branch: s.branch };
    // The worktree and branch still exist: both sides refuse with the same code and move nothing.
    const refusedApi = await api("/api/quarantine", claim);
    const refusedCli = cli("session", "quarantine", s.id, "--adapter", "shell", "--tmux", s.tmuxName, "--worktree", s.worktree, "--branch", s.branch);
    expect(codeOf(refusedApi)).toBe(codeOf(refusedCli));
    expect([refusedApi.status, refusedCli.code]).toEqual([409, 1]);
    const incomplete = await api("/api/quarantine", { id: s.id, adapter: "shell" });
    expect([incomplete.status, codeOf(incomplete)]).toEqual([400, "field_required"]);

    sb.git(["worktree", "remove", "--force", s.worktree]);
    sb.git(["branch", "-D", s.branch]);
    const done = await api("/api/quarantine", claim);
    expect(done).toMatchObject({ status: 200, body: { quarantined: true, bytes: bytes.length } });
    expect(existsSync(file)).toBe(false);
    expect((await api("/api/quarantine/restore", { id: s.id })).body).toMatchObject({ restored: true });
    expect(readFileSync(file)).toEqual(bytes);
    const again = await api("/api/quarantine/restore", { id: s.id });
    expect([again.status, codeOf(again)]).toEqual([409, codeOf(cli("session", "quarantine", s.id, "--restore"))]);
    const notAnId = await api("/api/quarantine/restore", { id: "../../etc" });
    expect([notAnId.status]).toEqual([400]);
  });
});
