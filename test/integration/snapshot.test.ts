// The snapshot (issue 13, item 3): real output of `spex snapshot --json`, from
// a project holding one of everything, checked against the schema written in
// docs/snapshot.md (its TypeScript block, compiled with tsc: a field the
// documentation does not name, a missing one or a value outside an enum fails),
// and against the CLI listings it promises to repeat.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, type Sandbox, okJson, sandbox, waitFor } from "../support/sandbox";
import { recordFile, seedLive } from "../support/teardown";
import { projectStore } from "../../lib/store";

setDefaultTimeout(120000);
let sb: Sandbox;
let snap: any;

const json = (args: string[]) => okJson(sb.spex([...args, "--json"]));

beforeAll(async () => {
  sb = sandbox();
  // Sessions: one running, one archived and stopped, a child, a corrupt record.
  const running = seedLive(sb, { slug: "running", command: "sh -c 'echo hi; exec sleep 1000'", fields: { status: "active" } });
  const archived = seedLive(sb, { slug: "archived", tmux: false });
  seedLive(sb, { slug: "child", tmux: false, fields: { parent: running.id, name: "the child", note: "half way" } });
  const broken = seedLive(sb, { slug: "broken", tmux: false });
  json(["session", "archive", archived.id]);
  writeFileSync(recordFile(sb, broken.id), "{ not json");
  // Groups, tasks with a dependency and a claim, leases.
  json(["group", "new", "fleet", "--dir", "services"]);
  json(["group", "new", "fleet/api"]);
  json(["group", "file", "fleet/api", running.id]);
  json(["task", "new", "first"]);
  json(["task", "new", "second", "--depends-on", "t1", "--body", "after the first"]);
  json(["task", "claim", "t1", "--session", running.id]);
  json(["reserve", "src/auth", "--session", running.id, "--note", "refactor"]);
  json(["reserve", "docs/**/*.md", "--shared", "--session", archived.id]);
  // Terminals: running, exited, corrupt.
  json(["terminal", "new", "--session", running.id]);
  const once = JSON.parse(sb.spex(["terminal", "new", "--name", "once", "--json", "--", "sh", "-c", "exit 0"]).stdout);
  await waitFor(() => json(["terminal", "ls"]).find((t: any) => t.id === once.id)?.state === "exited", "the command to exit");
  const bad = "44444444-2222-4333-8444-555555555555";
  writeFileSync(join(projectStore(sb.repo, sb.home).dir, "terminals", `${bad}.json`), "[]");
  // Messages waiting: text from a session, a name and the user, and keys (the target is working, so they stay queued).
  json(["session", "send", running.id, "from the archived one", "--from", archived.id, "--queue-only"]);
  json(["session", "send", running.id, "from a name", "--from", "boss", "--queue-only"]);
  json(["session", "send", running.id, "from the user", "--queue-only"]);
  json(["session", "send", running.id, "--keys", "Down Enter", "--queue-only"]);
  snap = json(["snapshot"]);
});
afterAll(() => sb?.cleanup());

/** The TypeScript block of docs/snapshot.md, as the documentation states the schema. */
function documentedSchema(): string {
  const doc = readFileSync(join(REPO_ROOT, "docs", "snapshot.md"), "utf8");
  const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  expect(blocks).toHaveLength(1);
  return blocks[0]!;
}

/** tsc's diagnostics for each document assigned, as a fresh literal, to SnapshotV1 ("" when it type-checks). */
function check(docs: Record<string, unknown>): Record<string, string> {
  writeFileSync(join(sb.dir, "snapshot-schema.ts"), documentedSchema());
  const files = Object.entries(docs).map(([name, value]) => {
    const file = join(sb.dir, `${name}.ts`);
    writeFileSync(file, `import type { SnapshotV1 } from "./snapshot-schema";\nexport const doc: SnapshotV1 = ${JSON.stringify(value, null, 2)};\n`);
    return file;
  });
  const tsc = join(REPO_ROOT, "node_modules", ".bin", "tsc");
  const r = spawnSync(tsc, ["--noEmit", "--strict", "--skipLibCheck", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler", ...files], { encoding: "utf8" });
  const out = (r.stdout + r.stderr).split("\n");
  return Object.fromEntries(Object.keys(docs).map((name) => [name, out.filter((l) => l.includes(`${name}.ts(`) || l.includes("snapshot-schema.ts(")).join("\n")]));
}

test("every part holds something, each kind of row included, so the check below checks them all", () => {
  expect(snap.schemaVersion).toBe("spex.snapshot.v1");
  expect(snap.sessions.map((r: any) => r.kind).sort()).toEqual(["corrupt", "ok", "ok", "ok"]);
  expect(snap.sessions.some((r: any) => r.archived)).toBe(true);
  expect(snap.groups.map((g: any) => g.path)).toEqual(["fleet", "fleet/api"]);
  expect(snap.tasks.map((t: any) => [t.id, t.state, t.blocked])).toEqual([["t1", "in_progress", false], ["t2", "pending", true]]);
  expect(snap.reservations.map((l: any) => l.mode).sort()).toEqual(["exclusive", "shared"]);
  expect(snap.terminals.map((t: any) => t.state).sort()).toEqual(["corrupt", "exited", "running"]);
  expect(snap.messages.map((m: any) => [m.from.kind, m.state, m.queuePosition])).toEqual([
    ["session", "queued", 1],
    ["name", "queued", 2],
    ["user", "queued", 3],
    ["user", "queued", 1],
  ]);
  expect(snap.machine.tmuxSocket).toBe(sb.tmuxSocket);
  expect(snap.project.root).toBe(sb.repo);
});

test("real output type-checks against the schema in docs/snapshot.md; an undocumented field, a missing one or a value outside an enum does not", () => {
  const extra = structuredClone(snap);
  extra.sessions.find((r: any) => r.kind === "ok").secretField = 1;
  const missing = structuredClone(snap);
  delete missing.machine.cpus;
  const outside = structuredClone(snap);
  outside.terminals.find((t: any) => t.kind === "ok").state = "paused";
  const verdict = check({ real: snap, extra, missing, outside });
  expect(verdict.real).toBe("");
  expect(verdict.extra).toContain(`'"secretField"' does not exist in type 'SessionRow'`);
  expect(verdict.missing).toContain("Property 'cpus' is missing");
  expect(verdict.outside).toContain(`Type '"paused"' is not assignable`);
});

test("its parts are the CLI's listings: ls --all, group ls, task ls, reserve ls, terminal ls", () => {
  expect(snap.sessions).toEqual(json(["session", "ls", "--all"]));
  expect(snap.groups).toEqual(json(["group", "ls"]));
  expect(snap.tasks).toEqual(json(["task", "ls"]));
  expect(snap.reservations.map(({ expires_in: _e, ...l }: any) => l)).toEqual(json(["reserve", "ls"]).map(({ expires_in: _e, ...l }: any) => l));
  expect(snap.terminals).toEqual(json(["terminal", "ls"]));
  for (const m of snap.messages) expect(json(["session", "message-status", m.messageId])).toEqual(m);
});

test("without --json it counts each part", () => {
  const r = sb.spex(["snapshot"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("spex.snapshot.v1");
  expect(r.stdout).toMatch(/sessions\s+4\n/);
  expect(r.stdout).toMatch(/messages waiting\s+4\n/);
});

test("one corrupt coordination file empties only its part and is named under corrupt; the CLI, HTTP and MCP all answer the rest (issue 21 item 11)", async () => {
  const coord = join(projectStore(sb.repo, sb.home).dir, "coord");
  const files = { tasks: join(coord, "tasks.json"), groups: join(coord, "groups.json") };
  const saved = Object.fromEntries(Object.entries(files).map(([k, f]) => [k, readFileSync(f, "utf8")]));
  try {
    writeFileSync(files.tasks, '{"version":1,"next":3,"tasks":[{"id":"t1"');
    writeFileSync(files.groups, "not json at all");
    const r = sb.spex(["snapshot", "--json"]);
    expect(r.code).toBe(0);
    const broken = JSON.parse(r.stdout);
    expect([broken.tasks, broken.groups]).toEqual([[], []]);
    expect(broken.corrupt.map((c: any) => [c.part, c.code, c.file])).toEqual([
      ["groups", "groups_corrupt", files.groups],
      ["tasks", "coord_corrupt", files.tasks],
    ]);
    // The rest is whole: the sessions, the leases, the terminals, the messages.
    expect(broken.sessions).toHaveLength(snap.sessions.length);
    expect(broken.reservations).toHaveLength(2);
    expect(broken.terminals).toHaveLength(3);
    expect(broken.messages).toHaveLength(4);
    expect(check({ broken }).broken).toBe("");
    const human = sb.spex(["snapshot"]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/tasks\s+corrupt\n\s+.*tasks\.json/);

    const { serve, http } = await import("./backend-support");
    const served = await serve(sb);
    try {
      const over = await http(served.url, "/api/snapshot", { token: served.token });
      expect([over.status, over.json.corrupt.map((c: any) => c.part)]).toEqual([200, ["groups", "tasks"]]);
    } finally {
      await served.stop();
    }
    const { connectMcp, jsonOf } = await import("../support/mcp");
    const mcp = await connectMcp(sb);
    try {
      const answer = await mcp.call("snapshot");
      expect(answer.isError).toBeFalsy();
      expect(jsonOf(answer).corrupt.map((c: any) => c.part)).toEqual(["groups", "tasks"]);
    } finally {
      await mcp.close();
    }
  } finally {
    for (const [k, f] of Object.entries(files)) writeFileSync(f, saved[k]!);
  }
});
