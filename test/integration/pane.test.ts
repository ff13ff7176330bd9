// The live pane routes behind the dashboard's terminal (issue 17): frames of
// the session's pane over a token-protected stream, keys back from one writer
// at a time, and nothing but key names and literal text reaching tmux — an
// escape sequence or a tmux command separator typed in the browser does not
// become a command, and a frame carries no escape but colours.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { request } from "node:http";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { type Served, http, serve } from "./backend-support";

let sb: Sandbox;
let be: Served;
let id = "";
let tmuxName = "";

interface PaneStream {
  status: number;
  events: { type: string; data: any }[];
  viewer: string;
  close(): void;
}

function openPane(path: string, token?: string): Promise<PaneStream> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const out: PaneStream = { status: 0, events: [], viewer: "", close: () => req.destroy() };
    const req = request(new URL(path, be.url), { headers, agent: false }, (res) => {
      out.status = res.statusCode ?? 0;
      if (out.status !== 200) {
        res.resume();
        return resolve(out);
      }
      let buf = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buf += chunk;
        let end: number;
        while ((end = buf.indexOf("\n\n")) >= 0) {
          const block = buf.slice(0, end);
          buf = buf.slice(end + 2);
          const type = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (!type || data === undefined) continue;
          const parsed = JSON.parse(data);
          if (type === "hello") out.viewer = parsed.viewer;
          out.events.push({ type, data: parsed });
        }
      });
      resolve(out);
    });
    req.on("error", (e) => (e.message.includes("socket hang up") || e.message.includes("aborted") ? undefined : reject(e)));
    req.end();
  });
}

/** A viewer that holds the keyboard, for the length of `fn`. */
async function asWriter(fn: (s: PaneStream) => Promise<void>): Promise<void> {
  const s = await openPane(`/api/sessions/${id}/pane`, be.token);
  try {
    await waitFor(() => s.viewer, "hello");
    // The previous test's viewer may still hold the keyboard until the server sees its stream close.
    await waitFor(async () => (await post("writer", { viewer: s.viewer })).status === 200, "the keyboard");
    await fn(s);
  } finally {
    s.close();
  }
}

const frames = (s: PaneStream) => s.events.filter((e) => e.type === "frame").map((e) => e.data);
const lastText = (s: PaneStream): string => frames(s).at(-1)?.text ?? "";
const paneText = () => sb.tmux(["capture-pane", "-p", "-t", tmuxName]).stdout;
const post = (tail: string, body: unknown, token = be.token) => http(be.url, `/api/sessions/${id}/pane/${tail}`, { body, token });

beforeAll(async () => {
  sb = sandbox();
  writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ sessions: { maxActive: 50 } }));
  be = await serve(sb);
  const made = await http(be.url, "/api/sessions", { body: { prompt: "echo pane-ready", launcher: "shell" }, token: be.token, key: "pane-test" });
  expect(made.status).toBe(201);
  id = made.json.session_id;
  tmuxName = made.json.tmux_session;
  await waitFor(() => paneText().split("\n").includes("pane-ready"), "the shell to run its prompt");
});

afterAll(async () => {
  await be?.stop();
  sb?.cleanup();
});

describe("the pane stream", () => {
  test("needs the token; with it, frames of the pane as it is now, at its size", async () => {
    for (const token of [undefined, "f".repeat(64)]) {
      const refused = await openPane(`/api/sessions/${id}/pane`, token);
      expect(refused.status).toBe(401);
    }
    for (const tail of ["writer", "keys"]) expect((await post(tail, { viewer: "0".repeat(24), data: "x" }, "")).status).toBe(401);
    const s = await openPane(`/api/sessions/${id}/pane`, be.token);
    try {
      expect(s.status).toBe(200);
      await waitFor(() => frames(s).length > 0, "a first frame");
      const size = sb.tmux(["display-message", "-p", "-t", tmuxName, "#{pane_width} #{pane_height}"]).stdout.trim().split(" ").map(Number);
      expect([frames(s)[0].cols, frames(s)[0].rows]).toEqual(size);
      expect(s.viewer).toMatch(/^[0-9a-f]{24}$/);
      expect(s.events[0]).toMatchObject({ type: "hello", data: { writer: false, writerHeld: false } });
    } finally {
      s.close();
    }
  });

  test("a frame keeps colours and drops every other escape the pane's program prints", async () => {
    await asWriter(async (s) => {
      // Red text and a window title: only the colour may come through.
      // (%s keeps the words out of the typed command line, so only the output has them whole.)
      const typed = await post("keys", { viewer: s.viewer, data: "printf '\\033[31mR%sD\\033[0m \\033]0;title\\007 do%se\\n' E n\r" });
      expect(typed.status).toBe(200);
      const text = await waitFor(() => lastText(s).split("\n").some((l) => l.replace(/\u001b\[[0-9;:]*m/g, "") === "RED  done") && lastText(s), "the printed line in a frame");
      expect(text).toMatch(/\u001b\[[0-9;]*31[0-9;]*mRED/);
      expect(text.replace(/\u001b\[[0-9;:]*m/g, "")).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    });
  });
});

describe("typing", () => {
  test("keys reach the pane only from the viewer holding the keyboard; a second viewer must take over", async () => {
    const a = await openPane(`/api/sessions/${id}/pane`, be.token);
    const b = await openPane(`/api/sessions/${id}/pane`, be.token);
    try {
      await waitFor(() => a.viewer && b.viewer, "both viewers");
      const notYet = await post("keys", { viewer: a.viewer, data: "echo not-typed\r" });
      expect([notYet.status, notYet.json.error.code]).toEqual([409, "pane_not_writer"]);
      expect((await post("writer", { viewer: a.viewer })).json).toEqual({ writer: true, tookOver: false });
      await waitFor(() => b.events.some((e) => e.type === "writer" && e.data.writerHeld && !e.data.writer), "b told that someone writes");
      const busy = await post("writer", { viewer: b.viewer });
      expect([busy.status, busy.json.error.code]).toEqual([409, "pane_writer_busy"]);
      expect((await post("keys", { viewer: b.viewer, data: "echo from-b\r" })).json.error.code).toBe("pane_writer_busy");
      expect((await post("keys", { viewer: a.viewer, data: "echo from-a-$((40+2))\r" })).status).toBe(200);
      await waitFor(() => paneText().split("\n").includes("from-a-42"), "a's command output in the pane");
      expect(paneText()).not.toContain("not-typed");
      expect(paneText()).not.toContain("from-b");

      expect((await post("writer", { viewer: b.viewer, take: true })).json).toEqual({ writer: true, tookOver: true });
      await waitFor(() => a.events.some((e) => e.type === "writer" && !e.data.writer && e.data.writerHeld), "a told it lost the keyboard");
      expect((await post("keys", { viewer: a.viewer, data: "x" })).json.error.code).toBe("pane_writer_busy");
      expect((await post("keys", { viewer: b.viewer, data: "echo from-b-now\r" })).status).toBe(200);
      await waitFor(() => paneText().split("\n").includes("from-b-now"), "b's output").catch((e) => {
        throw new Error(`${e.message}: ${paneText()}`);
      });
      // The writer's stream closing frees the keyboard for the next.
      b.close();
      await waitFor(async () => (await post("writer", { viewer: a.viewer })).status === 200, "a takes the keyboard back without force");
    } finally {
      a.close();
      b.close();
    }
  });

  test("typed tmux syntax and escape sequences arrive as text or not at all: no tmux command runs, the server lives", async () => {
    await asWriter(async (s) => {
      const attack = "echo 'a;' ; kill-server ; \\; -t =x: #{pane_id}\u001b]0;t\u0007\u001b[201~\u001bP+q\u001b\\ end-of-line\r";
      expect((await post("keys", { viewer: s.viewer, data: attack })).status).toBe(200);
      await waitFor(() => paneText().includes("end-of-line"), "the typed line");
      expect(sb.tmux(["has-session", "-t", tmuxName]).status).toBe(0);
      // The shell got the text as typed (the sequences dropped): `echo 'a;'` printed a;.
      await waitFor(() => paneText().split("\n").includes("a;"), "echo's output");
      // A typed run ending in `;` (which tmux would read as the end of its command) arrives whole: `echo x\;` prints x;.
      expect((await post("keys", { viewer: s.viewer, data: "echo x\\;" })).status).toBe(200);
      expect((await post("keys", { viewer: s.viewer, data: "\r" })).status).toBe(200);
      await waitFor(() => paneText().split("\n").includes("x;"), "x; printed");
    });
  });

  test("a paste goes in as one bracketed paste with its control characters made visible", async () => {
    await asWriter(async (s) => {
      expect((await post("keys", { viewer: s.viewer, paste: "echo pasted-\u001b[201~text" })).status).toBe(200);
      expect((await post("keys", { viewer: s.viewer, data: "\r" })).status).toBe(200);
      await waitFor(() => paneText().includes("pasted-␛[201~text"), "the pasted line, its ESC shown");
    });
  });

  test("only the writer sizes the pane; it gets its own size back when that writer leaves or another takes over", async () => {
    const size = () => sb.tmux(["display-message", "-p", "-t", tmuxName, "#{window_width}x#{window_height}"]).stdout.trim();
    const own = size();
    const a = await openPane(`/api/sessions/${id}/pane`, be.token);
    const b = await openPane(`/api/sessions/${id}/pane`, be.token);
    try {
      await waitFor(() => a.viewer && b.viewer, "both viewers");
      await waitFor(async () => (await post("writer", { viewer: a.viewer })).status === 200, "the keyboard");
      const notWriter = await post("size", { viewer: b.viewer, cols: 90, rows: 30 });
      expect([notWriter.status, notWriter.json.error.code]).toEqual([409, "pane_writer_busy"]);
      for (const bad of [{ cols: 2, rows: 30 }, { cols: 90, rows: 30.5 }, { cols: "90", rows: 30 }]) {
        expect((await post("size", { viewer: a.viewer, ...bad })).json.error.code).toBe("field_invalid");
      }
      expect((await post("size", { viewer: a.viewer, cols: 90, rows: 30 })).json).toEqual({ cols: 90, rows: 30 });
      expect(size()).toBe("90x30");
      await waitFor(() => frames(b).some((f) => f.cols === 90 && f.rows === 30), "a frame at the new size");
      // Another viewer takes over: the size was the old writer's.
      expect((await post("writer", { viewer: b.viewer, take: true })).status).toBe(200);
      await waitFor(() => size() === own, "the pane's own size back after the takeover");
      expect((await post("size", { viewer: b.viewer, cols: 100, rows: 20 })).status).toBe(200);
      expect(size()).toBe("100x20");
      b.close();
      await waitFor(() => size() === own, "the pane's own size back when the writer left");
      // The window follows its clients again (resize-window had fixed its size).
      expect(sb.tmux(["show-options", "-w", "-t", tmuxName, "window-size"]).stdout.trim()).toBe("");
    } finally {
      a.close();
      b.close();
    }
  });

  test("the scrollback comes as display text: colours kept, every other escape dropped", async () => {
    await asWriter(async (s) => {
      await post("keys", { viewer: s.viewer, data: "clear; for i in $(seq 1 80); do printf '\\033[32mhist-%s\\033[0m\\033]0;t\\007\\n' $i; done\r" });
      await waitFor(() => paneText().includes("hist-80"), "the lines printed");
      const h = await http(be.url, `/api/sessions/${id}/pane/history`, { token: be.token });
      expect(h.status).toBe(200);
      const plain = h.json.lines.map((l: string) => l.replace(/\u001b\[[0-9;:]*m/g, ""));
      expect(plain).toContain("hist-1");
      expect(h.json.history).toBeGreaterThanOrEqual(plain.indexOf("hist-1") + 1);
      expect(h.json.lines.find((l: string) => l.includes("hist-1"))).toMatch(/\u001b\[[0-9;]*32m/);
      expect(h.json.lines.join("\n").replace(/\u001b\[[0-9;:]*m/g, "")).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      expect((await http(be.url, `/api/sessions/${id}/pane/history`)).status).toBe(401);
    });
  });

  test("a stopped session has no pane to stream", async () => {
    const other = await http(be.url, "/api/sessions", { body: { prompt: "to be stopped", launcher: "shell" }, token: be.token, key: "pane-stop" });
    expect((await http(be.url, `/api/sessions/${other.json.session_id}/stop`, { body: {}, token: be.token })).status).toBe(200);
    const r = await http(be.url, `/api/sessions/${other.json.session_id}/pane`, { token: be.token });
    expect([r.status, r.json.error.code]).toEqual([409, "session_not_running"]);
  });
});
