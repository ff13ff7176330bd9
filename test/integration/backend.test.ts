// The backend's API over real HTTP against the built binary: keyed creation
// (the idempotency matrix), input refusals, the token, the Host check.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { sandboxAvailability } from "../../lib/workspace/sandbox";
import { type Served, branches, http, serve, sessionCount, spexAsync, worktrees } from "./backend-support";

let sb: Sandbox;
let be: Served;

beforeAll(async () => {
  sb = sandbox();
  // Many shell sessions run at once here; the default cap is 8.
  writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ sessions: { maxActive: 500 } }));
  be = await serve(sb);
});

afterAll(async () => {
  await be?.stop();
  sb?.cleanup();
});

const create = (body: unknown, key: string | undefined, token: string | undefined = be.token) =>
  http(be.url, "/api/sessions", { body, key, token });
/** Reads need the token too (issue 11; backend-auth.test.ts checks every route without it). */
const read = (path: string) => http(be.url, path, { token: be.token });

describe("keyed creation", () => {
  test("the same key and payload answers 201 then 200 with the same session, made once", async () => {
    const body = { prompt: "replay me [[api]]", launcher: "shell" };
    const first = await create(body, "key-same-1");
    expect(first.status).toBe(201);
    expect(first.json.replayed).toBe(false);
    expect(first.json.prompt).toBe("replay me [[api]]");
    expect(first.json.create_request_id).toBe("key-same-1");
    const again = await create(body, "key-same-1");
    expect(again.status).toBe(200);
    expect(again.json.replayed).toBe(true);
    expect(again.json.session_id).toBe(first.json.session_id);
    expect(again.json.branch).toBe(first.json.branch);
    expect(worktrees(sb).split("\n").filter((l) => l.startsWith("worktree ") && l.includes(first.json.worktree_path)).length).toBe(1);
  });

  test("the same key with another payload is refused with 409 and changes nothing", async () => {
    const first = await create({ prompt: "original ask", launcher: "shell" }, "key-other-1");
    expect(first.status).toBe(201);
    const before = sessionCount(sb);
    const other = await create({ prompt: "a different ask", launcher: "shell" }, "key-other-1");
    expect(other.status).toBe(409);
    expect(other.json.error.code).toBe("session_create_key_reused");
    const renamed = await create({ prompt: "original ask", launcher: "shell", name: "x" }, "key-other-1");
    expect(renamed.status).toBe(409);
    expect(sessionCount(sb)).toBe(before);
  });

  test("a pinned and an unpinned create are different requests under one key", async () => {
    const head = sb.git(["rev-parse", "HEAD"]).trim();
    const unpinned = await create({ prompt: "pin matrix", launcher: "shell" }, "key-pin-1");
    expect(unpinned.status).toBe(201);
    expect(unpinned.json.base).toBeUndefined();
    const pinnedSameKey = await create({ prompt: "pin matrix", launcher: "shell", base: head }, "key-pin-1");
    expect(pinnedSameKey.status).toBe(409);
    expect(pinnedSameKey.json.error.code).toBe("session_create_key_reused");

    const pinned = await create({ prompt: "pin matrix", launcher: "shell", base: head }, "key-pin-2");
    expect(pinned.status).toBe(201);
    expect(pinned.json.base).toBe(head);
    expect((await create({ prompt: "pin matrix", launcher: "shell", base: head }, "key-pin-2")).status).toBe(200);
    expect((await create({ prompt: "pin matrix", launcher: "shell" }, "key-pin-2")).status).toBe(409);
  });

  test("a retry naming the same pin another way (the full sha of the tag it named) is the same request; another commit is not (issue 21 item 11)", async () => {
    sb.git(["tag", "t1"]);
    const sha = sb.git(["rev-parse", "t1^{commit}"]).trim();
    const first = await create({ prompt: "pinned by tag", launcher: "shell", base: "t1" }, "key-pin-tag");
    expect([first.status, first.json.base]).toEqual([201, sha]);
    const bySha = await create({ prompt: "pinned by tag", launcher: "shell", base: sha }, "key-pin-tag");
    expect([bySha.status, bySha.json.replayed, bySha.json.session_id]).toEqual([200, true, first.json.session_id]);
    expect((await create({ prompt: "pinned by tag", launcher: "shell", base: sha.slice(0, 12) }, "key-pin-tag")).status).toBe(200);
    sb.git(["commit", "-q", "--allow-empty", "-m", "another commit"]);
    const moved = await create({ prompt: "pinned by tag", launcher: "shell", base: "HEAD" }, "key-pin-tag");
    expect([moved.status, moved.json.error?.code]).toEqual([409, "session_create_key_reused"]);
  });

  test("different keys with the same payload make two sessions", async () => {
    const a = await create({ prompt: "twice asked", launcher: "shell" }, "key-twice-a");
    const b = await create({ prompt: "twice asked", launcher: "shell" }, "key-twice-b");
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.json.session_id).not.toBe(b.json.session_id);
  });

  test("concurrent requests with one key make one session and answer the rest as replays", async () => {
    const body = { prompt: "raced create", launcher: "shell" };
    const answers = await Promise.all([1, 2, 3].map(() => create(body, "key-race-1")));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(answers.map((a) => a.json.session_id)).size).toBe(1);
  });
});

describe("refusals", () => {
  test("an unknown body field is refused with 400 and nothing is made", async () => {
    const before = worktrees(sb);
    const r = await create({ prompt: "has an extra field", launcher: "shell", node: "sneaky" }, "key-unknown-1");
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe("unknown_field");
    expect(r.json.error.message).toContain('"node"');
    expect(worktrees(sb)).toBe(before);
  });

  test("a base that names no commit is refused with 400, leaving git worktree list and branches unchanged", async () => {
    const wt = worktrees(sb);
    const br = branches(sb);
    const count = sessionCount(sb);
    const r = await create({ prompt: "bad base", launcher: "shell", base: "no-such-ref-anywhere" }, "key-badbase-1");
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe("base_unresolvable");
    expect(worktrees(sb)).toBe(wt);
    expect(branches(sb)).toBe(br);
    expect(sessionCount(sb)).toBe(count);
  });

  test("a create without an Idempotency-Key, or with a malformed one, is refused with 400", async () => {
    const body = { prompt: "keyless", launcher: "shell" };
    const none = await create(body, undefined);
    expect(none.status).toBe(400);
    expect(none.json.error.code).toBe("idempotency_key_required");
    for (const key of ["", "has space", "x".repeat(129), "tab\there", "é"]) {
      const bad = await http(be.url, "/api/sessions", { body, token: be.token, headers: { "idempotency-key": key } });
      expect([key, bad.status, bad.json.error.code]).toEqual([key, 400, "idempotency_key_invalid"]);
    }
    expect((await create(body, "x".repeat(128))).status).toBe(201);
  });

  test("a missing or empty prompt, a non-string field and a non-object body are refused with 400", async () => {
    expect((await create({ launcher: "shell" }, "k-noprompt")).json.error.code).toBe("field_required");
    expect((await create({ prompt: "", launcher: "shell" }, "k-emptyprompt")).status).toBe(400);
    // Blanks alone are refused as the CLI refuses them, and nothing is made.
    const count = sessionCount(sb);
    const blank = await create({ prompt: " \n\t ", launcher: "shell" }, "k-blankprompt");
    expect([blank.status, blank.json.error.code, blank.json.error.message]).toEqual([400, "usage", "the prompt is only whitespace"]);
    expect(sessionCount(sb)).toBe(count);
    expect((await create({ prompt: 42 }, "k-number")).json.error.code).toBe("field_invalid");
    const notJson = await http(be.url, "/api/sessions", { raw: "{nope", token: be.token, key: "k-raw" });
    expect([notJson.status, notJson.json.error.code]).toEqual([400, "body_invalid"]);
    const list = await http(be.url, "/api/sessions", { raw: "[1]", token: be.token, key: "k-list" });
    expect(list.status).toBe(400);
  });

  test("group, directory, model and effort are the create options of new: placed in the group's folder, or the one asked for; checked per harness", async () => {
    expect(sb.spex(["group", "new", "api-team", "--dir", "services/api"]).code).toBe(0);
    const inGroup = await create({ prompt: "placed by its group", launcher: "shell", group: "api-team" }, "k-group");
    expect([inGroup.status, inGroup.json.group, inGroup.json.directory]).toEqual([201, "api-team", "services/api"]);
    const asked = await create({ prompt: "placed by directory", launcher: "shell", group: "api-team", directory: "docs" }, "k-dir");
    expect([asked.status, asked.json.group, asked.json.directory]).toEqual([201, "api-team", "docs"]);
    const out = await create({ prompt: "escape", launcher: "shell", directory: "../../etc" }, "k-dir-out");
    expect([out.status, out.json.error.code]).toEqual([400, "unsafe_path"]);
    const model = await create({ prompt: "a shell has no model", launcher: "shell", model: "opus", effort: "high" }, "k-model");
    expect([model.status, model.json.error.code]).toEqual([400, "usage"]);
    expect((await create({ prompt: "no group", launcher: "shell", group: "nope" }, "k-nogroup")).json.error.code).toBe("group_not_found");
  });

  test("sandbox is a create option as --sandbox is: true or on, no-network, off; anything else refused (issue 26)", async () => {
    const bad = await create({ prompt: "a sandbox of sorts", launcher: "shell", sandbox: "maybe" }, "k-sandbox-bad");
    expect([bad.status, bad.json.error.code]).toEqual([400, "field_invalid"]);
    const off = await create({ prompt: "no sandbox", launcher: "shell", sandbox: "off" }, "k-sandbox-off");
    expect(off.status).toBe(201);
    expect("sandbox" in off.json).toBe(false);
    if (!sandboxAvailability().usable) return;
    const on = await create({ prompt: "in a sandbox", launcher: "shell", sandbox: true }, "k-sandbox-on");
    expect([on.status, on.json.sandbox]).toEqual([201, "on"]);
    const offline = await create({ prompt: "offline", launcher: "shell", sandbox: "no-network", noQueue: false }, "k-sandbox-net");
    expect([offline.status, offline.json.sandbox]).toEqual([201, "no-network"]);
  });

  test("a body over the size limit is refused with 413", async () => {
    const r = await create({ prompt: "x".repeat(1024 * 1024 + 10), launcher: "shell" }, "k-huge");
    expect(r.status).toBe(413);
    expect(r.json.error.code).toBe("body_too_large");
  });
});

describe("security", () => {
  test("a mutating call without the token is refused with 401 and changes nothing", async () => {
    const before = sessionCount(sb);
    const none = await create({ prompt: "tokenless", launcher: "shell" }, "k-tokenless", "");
    expect(none.status).toBe(401);
    expect(none.json.error.code).toBe("token_required");
    const wrong = await create({ prompt: "tokenless", launcher: "shell" }, "k-tokenless", "0".repeat(64));
    expect(wrong.status).toBe(401);
    expect(wrong.json.error.code).toBe("token_invalid");
    expect(sessionCount(sb)).toBe(before);

    const id = (await create({ prompt: "keep running", launcher: "shell" }, "k-keep-running")).json.session_id;
    const stop = await http(be.url, `/api/sessions/${id}/stop`, { body: {} });
    expect(stop.status).toBe(401);
    const row = (await read(`/api/sessions/${id}`)).json.row;
    expect(row.stopped).toBe(false);
  });

  test("a request for Host evil.example is refused with 403, reads included", async () => {
    for (const path of ["/api/instance", "/api/sessions", "/"]) {
      const r = await http(be.url, path, { host: "evil.example" });
      expect(r.status).toBe(403);
      expect(r.json.error.code).toBe("host_forbidden");
    }
    const port = new URL(be.url).port;
    expect((await http(be.url, "/api/instance", { host: `evil.example:${port}` })).status).toBe(403);
    expect((await http(be.url, "/api/instance", { host: `127.0.0.1:${Number(port) + 1}` })).status).toBe(403);
    expect((await http(be.url, "/api/instance", { host: `localhost:${port}` })).status).toBe(200);
    const post = await http(be.url, "/api/sessions", { body: { prompt: "rebound", launcher: "shell" }, token: be.token, key: "k-rebound", host: "evil.example" });
    expect(post.status).toBe(403);
  });

  test("no response carries CORS headers, and a preflight is not granted", async () => {
    const r = await http(be.url, "/api/sessions", { token: be.token, headers: { origin: "http://evil.example" } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
    const pre = await http(be.url, "/api/sessions", { method: "OPTIONS", headers: { origin: "http://evil.example", "access-control-request-method": "POST" } });
    expect(pre.status).toBe(405);
    expect(Object.keys(pre.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
  });

  test("the token and endpoint files are private to the user and the endpoint record names this backend", async () => {
    const { statSync, readFileSync } = await import("node:fs");
    const { projectStore } = await import("../../lib/store");
    const { backendPaths } = await import("../../lib/backend");
    const p = backendPaths(projectStore(sb.repo, sb.home));
    expect(statSync(p.token).mode & 0o777).toBe(0o600);
    expect(statSync(p.endpoint).mode & 0o777).toBe(0o600);
    expect(statSync(p.dir).mode & 0o777).toBe(0o700);
    expect(readFileSync(p.token, "utf8").trim()).toBe(be.token);
    const endpoint = JSON.parse(readFileSync(p.endpoint, "utf8"));
    expect([endpoint.url, endpoint.pid, endpoint.root]).toEqual([be.url, be.pid, sb.repo]);
  });
});

describe("reads", () => {
  test("instance answers identity; the list carries previews and the detail the whole prompt", async () => {
    const inst = await http(be.url, "/api/instance");
    expect(inst.json).toMatchObject({ instanceId: be.instanceId, root: sb.repo, pid: be.pid });
    expect(typeof inst.json.version).toBe("string");
    const long = "a long ask " + "word ".repeat(400) + "THE END";
    const made = await create({ prompt: long, launcher: "shell" }, "k-long");
    const list = await read("/api/sessions");
    const row = list.json.sessions.find((s: any) => s.id === made.json.session_id);
    expect(row.preview.length).toBeLessThan(200);
    expect(JSON.stringify(list.json)).not.toContain("THE END");
    const detail = await read(`/api/sessions/${made.json.session_id.slice(0, 8)}`);
    expect(detail.json.prompt).toBe(long);
    expect((await read("/api/sessions/no-such-session")).status).toBe(404);
  });
});

describe("actions", () => {
  test("send, rename, stop, archive and close act on the session and show in its timeline", async () => {
    const id = (await create({ prompt: "act on me", launcher: "shell" }, "k-act")).json.session_id;
    const send = await http(be.url, `/api/sessions/${id}/send`, { body: { text: "hello from the api", deliver: false }, token: be.token });
    expect(send.status).toBe(200);
    expect(send.json.state).toBe("queued");
    const tl = await read(`/api/sessions/${id}/timeline`);
    expect(tl.json.events.some((e: any) => e.kind === "message_in" && e.text === "hello from the api" && e.from.kind === "user")).toBe(true);
    const unknown = await http(be.url, `/api/sessions/${id}/send`, { body: { text: "x", priority: 1 }, token: be.token });
    expect(unknown.status).toBe(400);

    expect((await http(be.url, `/api/sessions/${id}/rename`, { body: { name: "renamed-by-api" }, token: be.token })).json.changed).toBe(true);
    expect((await read("/api/sessions/renamed-by-api")).json.row.label).toBe("renamed-by-api");

    const stop = await http(be.url, `/api/sessions/${id}/stop`, { body: {}, token: be.token });
    expect(stop.status).toBe(200);
    expect(stop.json.change).toBeUndefined();
    expect((await read(`/api/sessions/${id}`)).json.row.stopped).toBe(true);

    expect((await http(be.url, `/api/sessions/${id}/archive`, { body: {}, token: be.token })).json.archived).toBe(true);
    const close = await http(be.url, `/api/sessions/${id}/close`, { body: { force: true }, token: be.token });
    expect(close.status).toBe(200);
    expect(close.json.closed).toBe(true);
    expect((await read(`/api/sessions/${id}`)).status).toBe(404);
  });

  test("reparent moves a child under a parent and detaches it again", async () => {
    const parent = (await create({ prompt: "the parent", launcher: "shell" }, "k-parent")).json.session_id;
    const child = (await create({ prompt: "the child", launcher: "shell" }, "k-child")).json.session_id;
    const moved = await http(be.url, "/api/sessions/reparent", { body: { children: [child], to: parent }, token: be.token });
    expect(moved.status).toBe(200);
    expect((await read(`/api/sessions/${child}`)).json.row.parent).toBe(parent);
    const cycle = await http(be.url, "/api/sessions/reparent", { body: { children: [parent], to: child }, token: be.token });
    expect([cycle.status, cycle.json.error.code]).toEqual([400, "reparent_cycle"]);
    await http(be.url, "/api/sessions/reparent", { body: { children: [child], to: null }, token: be.token });
    expect((await read(`/api/sessions/${child}`)).json.row.parent).toBe("");
  });
});

describe("events", () => {
  test("a state change made by the CLI reaches /api/events", async () => {
    const id = (await create({ prompt: "watched over sse", launcher: "shell" }, "k-sse")).json.session_id;
    const seen: string[] = [];
    const ac = new AbortController();
    const res = await fetch(`${be.url}/api/events`, { signal: ac.signal, headers: { authorization: `Bearer ${be.token}` } });
    const reader = res.body!.getReader();
    const pump = (async () => {
      const dec = new TextDecoder();
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        seen.push(dec.decode(value));
      }
    })();
    await waitFor(() => seen.join("").includes("event: hello"), "the hello event");
    const r = await (await import("./backend-support")).spexAsync(sb, ["session", "park", "--note", "parked from the cli", "--session", id]);
    expect(r.stderr).toBe("");
    await waitFor(() => seen.join("").includes("parked from the cli") && seen.join("").includes('"display":"parked"'), "the parked row and its timeline event");
    ac.abort();
    await pump;
  });
});

describe("the list and the stream", () => {
  // The page loads the list beside /api/events: the list's eventId against the hello's id tells it whether a change fell between.
  test("the list names the last event frame sent before it was read; a change after it comes with a higher id, and a hello carries the id the list has", async () => {
    const id = (await create({ prompt: "between list and stream", launcher: "shell" }, "k-between")).json.session_id;
    // The prompt runs as the shell's first command, and its turn is reported by a hook process of its own: a turn
    // reported after the park below is a new turn, which clears the park's note (the list never shows it). At rest first.
    const rest = await spexAsync(sb, ["session", "wait", id, "--idle", "--timeout", "60", "--json"]);
    expect(JSON.parse(rest.stdout).outcome).toBe("reached");
    const before = (await read("/api/sessions")).json;
    expect(before.sessions.some((r: any) => r.id === id)).toBe(true);
    expect(Number.isInteger(before.eventId)).toBe(true);
    // Someone listens, as the page does once its list is read (with nobody listening the backend only follows file events, and needs not).
    const listening = new AbortController();
    const stream = await fetch(`${be.url}/api/events`, { signal: listening.signal, headers: { authorization: `Bearer ${be.token}` } });
    const drained = stream.body!.pipeTo(new WritableStream()).catch(() => {});
    const r = await spexAsync(sb, ["session", "park", "--note", "after the list", "--session", id]);
    expect(r.stderr).toBe("");
    let after = before;
    await waitFor(async () => {
      after = (await read("/api/sessions")).json;
      return after.sessions.find((row: any) => row.id === id)?.note === "after the list" && after.eventId > before.eventId;
    }, "a newer list after the park");
    listening.abort();
    await drained;
    // A stream opened now starts with a hello whose id is the list's (nothing changed since): the page keeps its list.
    const ac = new AbortController();
    const res = await fetch(`${be.url}/api/events`, { signal: ac.signal, headers: { authorization: `Bearer ${be.token}` } });
    const reader = res.body!.getReader();
    let text = "";
    const dec = new TextDecoder();
    while (!/event: hello\n/.test(text)) text += dec.decode((await reader.read()).value);
    ac.abort();
    const helloId = Number(/id: (\d+)\nevent: hello/.exec(text)?.[1]);
    const now = (await read("/api/sessions")).json.eventId;
    expect(helloId).toBeGreaterThan(before.eventId);
    expect(helloId).toBeLessThanOrEqual(now);
  });
});

describe("one backend per project", () => {
  test("a second serve refuses naming the first; a stopped one removes its record and a dead one's is replaced", async () => {
    const second = sb.spex(["serve", "--json"]);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain("[backend_running]");
    expect(second.stderr).toContain(`pid ${be.pid}`);
    expect(second.stderr).toContain(be.url);
    expect(JSON.parse(second.stdout).error.pid).toBe(be.pid);

    const other = sandbox();
    try {
      const a = await serve(other);
      const { projectStore } = await import("../../lib/store");
      const { backendPaths, readEndpoint, writeEndpoint } = await import("../../lib/backend");
      const store = projectStore(other.repo, other.home);
      expect(await a.stop()).toBe(0);
      expect(existsSync(backendPaths(store).endpoint)).toBe(false);
      // The token stays for the project's next backend (serve-restart.test.ts).
      expect(existsSync(backendPaths(store).token)).toBe(true);
      // A backend that died without cleaning up: same record shape, a pid that no longer runs.
      writeEndpoint(store, { instanceId: "dead", url: "http://127.0.0.1:9", host: "127.0.0.1", port: 9, root: other.repo, pid: 999999, start: "1", boot: "x", startedAt: "", version: "0" }, "stale");
      const b = await serve(other);
      expect(readEndpoint(store)!.pid).toBe(b.pid);
      expect(b.token).not.toBe("stale");
      expect(await b.stop()).toBe(0);
    } finally {
      other.cleanup();
    }
  });
});
