// The CLI's authority decision on `spex session new` (DESIGN.md §5 step 2):
// nothing listening → in-process; a silent listener → indeterminate, nothing
// made; a listener that cannot prove it holds the token → unproven, nothing
// sent; another project's backend → refused; a proven backend owns the
// create, and its answer is reported as it is.
import { afterEach, describe, expect, test } from "bun:test";
import { type Server, createServer as createTcpServer, type Socket } from "node:net";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, makeRepo, sandbox } from "../support/sandbox";
import { projectStore } from "../../lib/store";
import { instanceProof, readEndpoint, readToken, writeEndpoint } from "../../lib/backend";
import { type Served, http, serve, spexAsync, worktrees } from "./backend-support";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function box(): Sandbox {
  const sb = sandbox();
  writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ sessions: { maxActive: 100 } }));
  cleanups.push(() => sb.cleanup());
  return sb;
}

async function served(sb: Sandbox, cwd?: string): Promise<Served> {
  const be = await serve(sb, { cwd });
  cleanups.push(() => be.stop());
  return be;
}

/** Point the project's endpoint record at `url`, as a backend that ran there would have left it. */
function recordEndpoint(sb: Sandbox, root: string, url: string, token = "t0ken"): void {
  const port = Number(new URL(url).port);
  writeEndpoint(projectStore(root, sb.home), { instanceId: "recorded", url, host: "127.0.0.1", port, root, pid: process.pid, start: "", boot: "", startedAt: "", version: "0" }, token);
}

function listen<T extends Server | HttpServer>(server: T): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const addr = server.address();
      resolve(`http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`);
    });
  });
}

/** A port nothing listens on: bind one, then let it go. */
async function refusingUrl(): Promise<string> {
  const s = createTcpServer();
  const url = await listen(s);
  await new Promise((r) => s.close(r));
  return url;
}

function rows(sb: Sandbox, cwd?: string): any[] {
  const r = sb.spex(["session", "ls", "--all", "--json"], { cwd });
  if (r.code !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

function keyOf(sb: Sandbox, id: string, cwd?: string): string {
  const r = sb.spex(["session", "show", id, "--json"], { cwd });
  if (r.code !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout).record.create_request_id;
}

describe("no backend", () => {
  test("with no recorded endpoint, new creates in-process", async () => {
    const sb = box();
    const r = await spexAsync(sb, ["session", "new", "--launcher", "shell", "--no-launch", "--json", "local create"]);
    expect(r.code).toBe(0);
    const made = JSON.parse(r.stdout);
    expect(made.create_request_id).toBe("");
    expect(rows(sb).map((x) => x.id)).toEqual([made.session_id]);
  });

  test("a recorded endpoint with nothing listening (connection refused) falls back to in-process", async () => {
    const sb = box();
    recordEndpoint(sb, sb.repo, await refusingUrl());
    const r = await spexAsync(sb, ["session", "new", "--launcher", "shell", "--no-launch", "--json", "refused then local"]);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout).create_request_id).toBe("");
  });

  test("an explicit --port with nothing listening also falls back to in-process", async () => {
    const sb = box();
    const port = new URL(await refusingUrl()).port;
    const r = await spexAsync(sb, ["session", "new", "--launcher", "shell", "--no-launch", "--port", port, "explicit refused"]);
    expect(r.code).toBe(0);
    expect(rows(sb).length).toBe(1);
  });
});

describe("indeterminate", () => {
  test("a listener that accepts and never answers fails after the 1.5 s budget with backend_availability_indeterminate and creates nothing", async () => {
    const sb = box();
    const held: Socket[] = [];
    const silent = createTcpServer((s) => held.push(s));
    const url = await listen(silent);
    cleanups.push(() => new Promise((r) => { for (const s of held) s.destroy(); silent.close(r); }));
    recordEndpoint(sb, sb.repo, url);
    const before = worktrees(sb);
    const r = await spexAsync(sb, ["session", "new", "--launcher", "shell", "--json", "must not be made"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("[backend_availability_indeterminate]");
    expect(JSON.parse(r.stdout).error.code).toBe("backend_availability_indeterminate");
    expect(held.length).toBeGreaterThan(0); // it did connect: the silence, not a refusal, decided
    expect(r.ms).toBeGreaterThanOrEqual(1400); // the whole budget was given to it
    expect(worktrees(sb)).toBe(before);
    expect(rows(sb)).toEqual([]);
  });

  test("a connection reset is indeterminate too, never a local fallback", async () => {
    const sb = box();
    const resetting = createTcpServer((s) => s.resetAndDestroy());
    const url = await listen(resetting);
    cleanups.push(() => new Promise((r) => resetting.close(r)));
    recordEndpoint(sb, sb.repo, url);
    const r = await spexAsync(sb, ["session", "new", "--launcher", "shell", "--no-launch", "reset"]);
    expect(r.stderr).toContain("[backend_availability_indeterminate]");
    expect(rows(sb)).toEqual([]);
  });
});

describe("another project's backend", () => {
  test("an implicit target serving another project is refused and nothing is created in either", async () => {
    const sb = box();
    const other = makeRepo(join(sb.dir, "other"), sb.env);
    const be = await served(sb, other);
    // As if that backend's record and token had been copied here: it proves the token, then names its own root.
    recordEndpoint(sb, sb.repo, be.url, be.token);
    const before = worktrees(sb);
    const r = await spexAsync(sb, ["session", "new", "--launcher", "shell", "not here"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("[backend_project_mismatch]");
    expect(r.stderr).toContain(other);
    expect(worktrees(sb)).toBe(before);
    expect(rows(sb)).toEqual([]);
    expect((await http(be.url, "/api/sessions", { token: be.token })).json.sessions).toEqual([]);
  });

  test("an explicit --port skips the project comparison and creates there, keyed", async () => {
    const sb = box();
    const other = makeRepo(join(sb.dir, "other"), sb.env);
    writeFileSync(join(other, "spexcode.local.json"), JSON.stringify({ sessions: { maxActive: 100 } }));
    const be = await served(sb, other);
    const r = await spexAsync(sb, ["session", "new", "--launcher", "shell", "--port", new URL(be.url).port, "--json", "made over there"]);
    expect(r.stderr).toBe("");
    const made = JSON.parse(r.stdout);
    expect(made.project_root).toBe(other);
    expect(made.create_request_id).not.toBe("");
    expect(rows(sb)).toEqual([]);
    expect(rows(sb, other).map((x) => x.id)).toEqual([made.session_id]);
  });
});

/** A fake listener that logs what it gets; `answer` sees the request and the challenge's proof under `token`. */
async function fakeBackend(answer: (method: string, url: string, proofFor: (token: string) => string | undefined) => { status: number; body: string } | "hang-up") {
  const seen: { method: string; url: string; key: string | undefined; auth: string | undefined; body: string }[] = [];
  const server = createHttpServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, key: req.headers["idempotency-key"] as string | undefined, auth: req.headers.authorization, body });
      const challenge = new URL(req.url!, "http://x").searchParams.get("challenge");
      const port = (server.address() as { port: number }).port;
      const a = answer(req.method!, req.url!, (token) => (challenge ? instanceProof(token, challenge, port) : undefined));
      if (a === "hang-up") return void req.socket.destroy();
      res.writeHead(a.status, { "content-type": "application/json" });
      res.end(a.body);
    });
  });
  const url = await listen(server);
  cleanups.push(() => new Promise((r) => server.close(r)));
  return { url, seen };
}

const identity = (root: string, proof?: string) => JSON.stringify({ instanceId: "fake", root, pid: 1, startedAt: "", version: "0", ...(proof ? { proof } : {}) });

describe("a listener must prove it holds the token before anything is sent", () => {
  test("one answering 500, or a made-up identity without proof, gets no POST: backend_unproven, nothing made", async () => {
    for (const instance of [{ status: 500, body: "internal trouble" }, { status: 200, body: "" }]) {
      const sb = box();
      const fake = await fakeBackend((method) => (method === "GET" ? { status: instance.status, body: instance.body || identity(sb.repo, "0".repeat(64)) } : { status: 201, body: "{}" }));
      recordEndpoint(sb, sb.repo, fake.url, "the-recorded-token");
      const before = worktrees(sb);
      const r = await spexAsync(sb, ["session", "new", "--launcher", "shell", "--json", "owned elsewhere"]);
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout).error).toMatchObject({ code: "backend_unproven", url: fake.url, status: instance.status });
      expect(fake.seen.map((s) => `${s.method} ${s.url.split("?")[0]} ${s.auth ?? "-"}`)).toEqual(["GET /api/instance -"]);
      expect(JSON.stringify(fake.seen)).not.toContain("the-recorded-token");
      expect(worktrees(sb)).toBe(before);
      expect(rows(sb)).toEqual([]);
    }
  });

  test("a relay that asks the real backend for the proof fails: the proof names the port it was made on", async () => {
    const sb = box();
    const be = await served(sb);
    // The relay forwards the challenge to the real backend and hands back its answer.
    const seen: string[] = [];
    const relay = createHttpServer(async (req, res) => {
      seen.push(`${req.method} ${req.url!.split("?")[0]} ${req.headers.authorization ?? "-"}`);
      req.resume();
      const answer = await http(be.url, req.url!);
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(answer.text);
    });
    const url = await listen(relay);
    cleanups.push(() => new Promise((r) => relay.close(r)));
    const r = await spexAsync(sb, ["session", "new", "--launcher", "shell", "--port", new URL(url).port, "--json", "relayed"], { env: { SPEX_API_TOKEN: be.token } });
    expect(JSON.parse(r.stdout).error.code).toBe("backend_unproven");
    expect(seen).toEqual(["GET /api/instance -"]);
    expect((await http(be.url, "/api/sessions", { token: be.token })).json.sessions).toEqual([]);
  });

  test("an explicit target whose token is unknown here is not sent the prompt", async () => {
    const sb = box();
    const fake = await fakeBackend((method) => (method === "GET" ? { status: 200, body: identity(sb.repo) } : { status: 201, body: "{}" }));
    const r = await spexAsync(sb, ["session", "new", "--launcher", "shell", "--api", fake.url, "--json", "to whom?"]);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: "backend_unproven", reason: "no_token" });
    expect(fake.seen.map((s) => s.method)).toEqual(["GET"]);
  });

  test("a retry after a broken create proves the listener again, and an impostor there gets nothing", async () => {
    const sb = box();
    let posts = 0;
    const fake = await fakeBackend((method, _url, proofFor) => {
      if (method === "POST") return posts++ === 0 ? "hang-up" : { status: 201, body: "{}" };
      // Before the first POST the real backend proves; after the hang-up someone else answers.
      return { status: 200, body: identity(sb.repo, posts === 0 ? proofFor("the-token") : "0".repeat(64)) };
    });
    recordEndpoint(sb, sb.repo, fake.url, "the-token");
    const r = await spexAsync(sb, ["session", "new", "--launcher", "shell", "--json", "broken once"]);
    expect(JSON.parse(r.stdout).error.code).toBe("backend_unproven");
    expect(r.stderr).toContain("may have made the session");
    expect(fake.seen.map((s) => `${s.method} ${s.url.split("?")[0]}`)).toEqual(["GET /api/instance", "POST /api/sessions", "GET /api/instance"]);
  });

  test("an error a proven backend answers keeps its own code and is never relabelled", async () => {
    const sb = box();
    const fake = await fakeBackend((method, _url, proofFor) =>
      method === "GET"
        ? { status: 200, body: identity(sb.repo, proofFor("t0ken")) }
        : { status: 503, body: JSON.stringify({ error: { code: "backend_busy", message: "too busy right now", hint: "retry later" } }) },
    );
    recordEndpoint(sb, sb.repo, fake.url);
    const r = await spexAsync(sb, ["session", "new", "--launcher", "shell", "--json", "busy"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("too busy right now; retry later [backend_busy]");
    expect(JSON.parse(r.stdout).error.code).toBe("backend_busy");
    expect(fake.seen.map((s) => `${s.method} ${s.auth ?? "-"}`)).toEqual(["GET -", "POST Bearer t0ken"]);
    expect(fake.seen[1]!.key).toMatch(/^[\x21-\x7e]{1,128}$/);
    expect(rows(sb)).toEqual([]);
  });
});

describe("the endpoint and token files", () => {
  test("a token file others can read, an endpoint that is a symlink, or one another user owns is refused before anything is sent", async () => {
    const { chmodSync, chownSync, renameSync, symlinkSync } = await import("node:fs");
    const { backendPaths } = await import("../../lib/backend");
    const sb = box();
    const fake = await fakeBackend(() => ({ status: 500, body: "" }));
    recordEndpoint(sb, sb.repo, fake.url);
    const p = backendPaths(projectStore(sb.repo, sb.home));
    const tries: [string, () => void, () => void][] = [
      ["is open to other users (mode 0644)", () => chmodSync(p.token, 0o644), () => chmodSync(p.token, 0o600)],
      ["is a symbolic link", () => (renameSync(p.endpoint, `${p.endpoint}.real`), symlinkSync(`${p.endpoint}.real`, p.endpoint)), () => renameSync(`${p.endpoint}.real`, p.endpoint)],
    ];
    if (process.getuid?.() === 0) tries.push(["belongs to uid 65534", () => chownSync(p.endpoint, 65534, 65534), () => chownSync(p.endpoint, 0, 0)]);
    for (const [why, spoil, mend] of tries) {
      spoil();
      const r = await spexAsync(sb, ["session", "new", "--launcher", "shell", "--json", "careful"]);
      expect([why, JSON.parse(r.stdout).error.code]).toEqual([why, "backend_file_unsafe"]);
      expect(r.stderr).toContain(why);
      mend();
    }
    expect(fake.seen).toEqual([]);
    expect(rows(sb)).toEqual([]);
  });
});

describe("through this project's backend", () => {
  test("new is keyed by the backend and prints the same format", async () => {
    const sb = box();
    const be = await served(sb);
    const r = await spexAsync(sb, ["session", "new", "--launcher", "shell", "via the backend"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^created [0-9a-f]{8} "via the backend" \((running|starting)\)\n {2}branch {3}spex\/via-the-backend-[0-9a-f]{4}\n {2}worktree .+\n {2}attach {3}spex session attach [0-9a-f]{8}\n$/);
    const id = rows(sb)[0].id;
    expect(keyOf(sb, id)).not.toBe("");
    expect((await http(be.url, "/api/sessions", { token: be.token })).json.sessions.map((s: any) => s.id)).toEqual([id]);
  });

  test("from inside a session's linked worktree, new resolves to the same project's backend", async () => {
    const sb = box();
    await served(sb);
    const first = JSON.parse((await spexAsync(sb, ["session", "new", "--launcher", "shell", "--json", "outer"])).stdout);
    const r = await spexAsync(sb, ["session", "new", "--launcher", "shell", "--parent", ".", "--json", "inner"], { cwd: first.worktree_path });
    expect(r.stderr).toBe("");
    const inner = JSON.parse(r.stdout);
    expect(inner.create_request_id).not.toBe("");
    expect(inner.parent).toBe(first.session_id);
  });

  test("a bad base through the backend fails with base_unresolvable and leaves git unchanged", async () => {
    const sb = box();
    await served(sb);
    const before = worktrees(sb);
    const r = await spexAsync(sb, ["session", "new", "--launcher", "shell", "--base", "nope-not-a-ref", "bad base"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("[base_unresolvable]");
    expect(worktrees(sb)).toBe(before);
  });

  test("--no-launch is refused while a backend owns creation", async () => {
    const sb = box();
    const be = await served(sb);
    const r = await spexAsync(sb, ["session", "new", "--launcher", "shell", "--no-launch", "quiet"]);
    expect(r.stderr).toContain("[backend_no_launch]");
    expect(readEndpoint(projectStore(sb.repo, sb.home))!.url).toBe(be.url);
    expect(readToken(projectStore(sb.repo, sb.home))).toBe(be.token);
    expect(rows(sb)).toEqual([]);
  });
});
