// Who may read (issue 11, item 1): everything the backend serves that shows a
// screen, a prompt, a note, message text or the event stream needs the
// instance token; only the identity route and the dashboard's static files
// are open. Attacked from another local user (uid nobody where the machine
// allows), and checked route by route with a missing and a wrong token.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { request } from "node:http";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { projectStore } from "../../lib/store";
import { backendPaths } from "../../lib/backend";
import { ROUTES } from "../../lib/backend/routes";
import { DASHBOARD_PATHS } from "../../lib/backend/dashboard";
import { type Served, http, serve } from "./backend-support";
import { type OtherUser, READER, otherUser } from "./backend-other-user";

let sb: Sandbox;
let be: Served;
let attacker: OtherUser;
let id = "";
let terminalId = "";
const tag = Math.random().toString(36).slice(2, 10);
const SECRETS = { prompt: `prompt-secret-${tag}`, pane: `pane-secret-${tag}`, message: `message-secret-${tag}`, note: `note-secret-${tag}`, terminal: `terminal-secret-${tag}` };

beforeAll(async () => {
  sb = sandbox();
  writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ sessions: { maxActive: 50 } }));
  be = await serve(sb);
  attacker = otherUser();
  const made = await http(be.url, "/api/sessions", { body: { prompt: `work on ${SECRETS.prompt}`, launcher: "shell" }, token: be.token, key: `auth-${tag}` });
  expect(made.status).toBe(201);
  id = made.json.session_id;
  // A secret the human typed into the pane, a message and a note: live content only the token holder may see.
  sb.tmux(["send-keys", "-t", made.json.tmux_session, "-l", `echo ${SECRETS.pane}`]);
  sb.tmux(["send-keys", "-t", made.json.tmux_session, "Enter"]);
  expect((await http(be.url, `/api/sessions/${id}/send`, { body: { text: SECRETS.message, deliver: false }, token: be.token })).status).toBe(200);
  expect(sb.spex(["session", "park", "--session", id, "--note", SECRETS.note]).code).toBe(0);
  await waitFor(async () => ((await http(be.url, `/api/sessions/${id}?capture=1`, { token: be.token })).json?.screen ?? "").includes(SECRETS.pane), "the typed secret on the live screen");
  // A terminal showing a secret, and a task, a lease and a group naming one: the new routes hand out nothing without the token either.
  const term = await http(be.url, "/api/terminals", { body: { command: ["sh", "-c", `echo ${SECRETS.terminal}; exec sleep 600`] }, token: be.token });
  expect(term.status).toBe(201);
  terminalId = term.json.id;
  await waitFor(async () => ((await http(be.url, `/api/terminals/${terminalId}/read`, { token: be.token })).json?.screen ?? "").includes(SECRETS.terminal), "the terminal's secret");
  expect((await http(be.url, "/api/tasks", { body: { title: `task ${SECRETS.note}` }, token: be.token })).status).toBe(201);
});

afterAll(async () => {
  await be?.stop();
  attacker?.cleanup();
  sb?.cleanup();
});

const leaks = (text: string): string[] => Object.values(SECRETS).filter((s) => text.includes(s));

describe("another local user", () => {
  test("reads no screen, prompt, note, message or event without the token", async () => {
    const paths = [
      `/api/sessions/${id}?capture=1`,
      `/api/sessions/${id}/timeline`,
      `/api/sessions/${id}/read`,
      "/api/events",
      "/api/sessions",
      `/api/sessions/${id}`,
      "/api/snapshot",
      "/api/terminals",
      `/api/terminals/${terminalId}/read`,
      "/api/tasks",
      `/api/sessions/${id}/pane`,
      `/api/sessions/${id}/diff`,
      "/api/instance",
    ];
    const tokenFile = backendPaths(projectStore(sb.repo, sb.home)).token;
    const got = await attacker.run(READER, [be.url, tokenFile, ...paths]);
    expect(got.uid).toBe(attacker.uid);
    expect(got.tokenRead).not.toBe("read");
    const seen = got.answers.map((a: any) => [a.path, a.status, leaks(a.body)]);
    expect(seen).toEqual(paths.map((p) => [p, p === "/api/instance" ? 200 : 401, []]));
    for (const a of got.answers.filter((x: any) => x.status === 401)) expect(JSON.parse(a.body).error.code).toBe("token_required");
  });
});

/** One request that returns once the status is known (a stream is cut after its first bytes). */
function answer(method: string, path: string, token?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "content-type": "application/json", "idempotency-key": `table-${tag}` };
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    const req = request(new URL(path, be.url), { method, headers, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      const done = () => {
        resolve({ status: res.statusCode ?? 0, body });
        req.destroy();
      };
      res.on("data", (c) => {
        body += c;
        if (res.headers["content-type"]?.startsWith("text/event-stream")) done();
      });
      res.on("end", done);
    });
    req.on("error", (e) => (e.message.includes("socket hang up") ? undefined : reject(e)));
    req.end(method === "POST" ? "{}" : undefined);
  });
}

describe("every route, without and with a wrong token", () => {
  // Every route the server has, with the answer a caller without the token gets. A new route must be added here.
  const table = (): { method: string; path: string; open: boolean }[] => [
    { method: "GET", path: "/api/instance", open: true },
    { method: "GET", path: "/", open: true },
    ...DASHBOARD_PATHS.map((path) => ({ method: "GET", path, open: true })),
    { method: "GET", path: "/api/sessions", open: false },
    { method: "GET", path: `/api/sessions/${id}`, open: false },
    { method: "GET", path: `/api/sessions/${id}?capture=1`, open: false },
    { method: "GET", path: `/api/sessions/${id}/timeline?tail=5`, open: false },
    { method: "GET", path: "/api/events", open: false },
    { method: "GET", path: `/api/sessions/${id}/read?history=10&styled=1`, open: false },
    { method: "POST", path: "/api/sessions", open: false },
    { method: "POST", path: "/api/sessions/reparent", open: false },
    ...["send", "stop", "archive", "resume", "close", "rename"].map((verb) => ({ method: "POST", path: `/api/sessions/${id}/${verb}`, open: false })),
    { method: "GET", path: `/api/sessions/${id}/diff`, open: false },
    { method: "GET", path: `/api/sessions/${id}/close-plan`, open: false },
    { method: "POST", path: `/api/sessions/${id}/merge`, open: false },
    { method: "POST", path: `/api/sessions/${id}/merge-by-agent`, open: false },
    { method: "POST", path: "/api/quarantine", open: false },
    { method: "POST", path: "/api/quarantine/restore", open: false },
    { method: "GET", path: "/api/snapshot", open: false },
    { method: "GET", path: "/api/tasks", open: false },
    { method: "POST", path: "/api/tasks", open: false },
    { method: "POST", path: "/api/tasks/claim", open: false },
    ...["finish", "release", "rm"].map((verb) => ({ method: "POST", path: `/api/tasks/t1/${verb}`, open: false })),
    { method: "GET", path: "/api/reservations", open: false },
    { method: "POST", path: "/api/reservations", open: false },
    { method: "POST", path: "/api/reservations/release", open: false },
    { method: "GET", path: "/api/groups", open: false },
    { method: "POST", path: "/api/groups", open: false },
    { method: "POST", path: "/api/groups/rm", open: false },
    { method: "POST", path: "/api/groups/file", open: false },
    { method: "GET", path: "/api/terminals", open: false },
    { method: "POST", path: "/api/terminals", open: false },
    { method: "GET", path: `/api/terminals/${terminalId}/read`, open: false },
    ...["send", "close"].map((verb) => ({ method: "POST", path: `/api/terminals/${terminalId}/${verb}`, open: false })),
    { method: "GET", path: `/api/sessions/${id}/pane`, open: false },
    { method: "POST", path: `/api/sessions/${id}/pane/writer`, open: false },
    { method: "POST", path: `/api/sessions/${id}/pane/keys`, open: false },
    { method: "POST", path: `/api/sessions/${id}/pane/size`, open: false },
    { method: "GET", path: `/api/sessions/${id}/pane/history`, open: false },
  ];

  test("the table names every route the server has", () => {
    const rows = table();
    for (const route of ROUTES) {
      const listed = rows.some((r) => r.method === route.method && route.pattern.test(r.path.split("?")[0]!));
      expect([route.method, String(route.pattern), listed]).toEqual([route.method, String(route.pattern), true]);
    }
    for (const asset of ["/", ...DASHBOARD_PATHS]) expect(rows.some((r) => r.path === asset && r.open)).toBe(true);
  });

  test("only the identity route and the page's static files answer without the token", async () => {
    const rows = table();
    const missing = [];
    const wrong = [];
    for (const r of rows) {
      const none = await answer(r.method, r.path);
      missing.push([r.method, r.path, none.status === 401 ? JSON.parse(none.body).error.code : "answered", leaks(none.body)]);
      const bad = await answer(r.method, r.path, "f".repeat(64));
      wrong.push([r.method, r.path, bad.status === 401 ? JSON.parse(bad.body).error.code : "answered", leaks(bad.body)]);
    }
    expect(missing).toEqual(rows.map((r) => [r.method, r.path, r.open ? "answered" : "token_required", []]));
    expect(wrong).toEqual(rows.map((r) => [r.method, r.path, r.open ? "answered" : "token_invalid", []]));
    // Nothing happened to the session, the terminal or the task list on the way.
    const row = (await http(be.url, `/api/sessions/${id}`, { token: be.token })).json.row;
    expect([row.stopped, row.archived, row.name]).toEqual([false, false, ""]);
    const terminals = (await http(be.url, "/api/terminals", { token: be.token })).json.terminals;
    expect(terminals.map((t: any) => [t.id, t.state])).toEqual([[terminalId, "running"]]);
    expect((await http(be.url, "/api/tasks", { token: be.token })).json.tasks).toHaveLength(1);
  });

  test("the identity route tells who serves, and nothing a session holds", async () => {
    const inst = await answer("GET", "/api/instance");
    expect(Object.keys(JSON.parse(inst.body)).sort()).toEqual(["instanceId", "pid", "root", "startedAt", "version"]);
    expect(leaks(inst.body)).toEqual([]);
    expect(inst.body).not.toContain(be.token);
  });
});
