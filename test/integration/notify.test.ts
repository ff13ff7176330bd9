// Notifications (issue 25, lib/attention): a command sink and a webhook sink
// on loopback hear each transition exactly once, from the process that wrote
// it, and nothing when a hook changes nothing.
import { afterEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { type Sandbox, REPO_ROOT, SPEX_BIN, sandbox, waitFor } from "../support/sandbox";
import { seedRecord } from "../support/records";
import { countingBin } from "../support/agents";
import { projectStore, sessionPaths } from "../../lib/store";

let sb: Sandbox | undefined;
let server: Server | undefined;
afterEach(async () => {
  sb?.cleanup();
  sb = undefined;
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

interface Sinks {
  /** Payloads the command sink received on its stdin, one per run. */
  commandRuns(): any[];
  /** Payloads POSTed to the webhook. */
  posts: any[];
  url: string;
}

/** A command sink (a script appending its stdin and argv to a file) and a webhook on loopback. */
async function startSinks(s: Sandbox): Promise<Sinks> {
  const log = join(s.dir, "command-sink.log");
  const script = join(s.dir, "sink.sh");
  writeFileSync(script, `#!/bin/sh\n{ printf '%s\\t' "$1"; cat; } >> '${log}'\n`);
  chmodSync(script, 0o755);
  const posts: any[] = [];
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      posts.push({ path: req.url, type: req.headers["content-type"], body: JSON.parse(body) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}/hook`;
  const sinks: Sinks = {
    url,
    posts,
    commandRuns: () =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .split("\n")
            .filter(Boolean)
            .flatMap((l) => {
              const [arg, json] = l.split("\t");
              // A run still writing its line is read on the next look.
              try {
                return [{ arg, ...JSON.parse(json!) }];
              } catch {
                return [];
              }
            })
        : [],
  };
  (sinks as any).script = script;
  return sinks;
}

function configure(s: Sandbox, sinks: Sinks, extra: Record<string, unknown> = {}): void {
  const on = ["asking", "error", "idle"];
  writeFileSync(
    join(s.repo, "spexcode.json"),
    JSON.stringify({ notify: [{ on, command: [(sinks as any).script, "an argument"] }, { on, webhook: sinks.url }], notifyMinIntervalSeconds: 0, ...extra }),
  );
}

/** `spex internal hook claude <action> <event>` as the agent's hook would run it on a real change. */
function hook(s: Sandbox, id: string, action: string, event: string, payload: Record<string, unknown> = {}) {
  return s.spex(["internal", "hook", "claude", action, event], { env: { SPEX_SESSION_ID: id, SPEX_PROJECT_ROOT: s.repo }, input: JSON.stringify(payload) });
}

const spawnedNotifies = (counter: { calls(): string[] }) => counter.calls().filter((c) => c.startsWith("internal notify")).length;

describe("notifications", () => {
  test("a command sink and a webhook hear each transition once; an unchanged hook and a repeated declaration fire nothing", async () => {
    sb = sandbox();
    const s = sb;
    const sinks = await startSinks(s);
    configure(s, sinks);
    const counter = countingBin(s, SPEX_BIN);
    const rec = seedRecord(s.home, s.repo, { status: "active", harness: "claude", launcher: "claude", name: "db work" });
    const id = rec.session_id;

    // active → idle: one notification to each sink, from the hook process that wrote it.
    expect(hook(s, id, "stop", "Stop").code).toBe(0);
    await waitFor(() => sinks.commandRuns().length >= 1 && sinks.posts.length >= 1, "the idle notification at both sinks");
    const [run] = sinks.commandRuns();
    expect(run.arg).toBe("an argument");
    expect(run).toMatchObject({ version: 1, event: "idle", session_id: id, short_id: id.slice(0, 8), label: "db work", project: s.repo, status: "idle", previous_status: "active", note: "", stall: null, budget: null });
    expect(typeof run.machine).toBe("string");
    expect(run.attach).toBe(`cd ${s.repo} && spex session attach ${id.slice(0, 8)}`);
    expect(Date.parse(run.at)).toBeGreaterThan(0);
    expect(sinks.posts[0]).toMatchObject({ path: "/hook", type: "application/json", body: { event: "idle", session_id: id } });

    // The same Stop again changes nothing: no notification is even started.
    expect(hook(s, id, "stop", "Stop").code).toBe(0);
    // The shell hook's fast path: the binary is not run at all.
    const hookScript = join(REPO_ROOT, "hooks", "agent-hook.sh");
    const record = sessionPaths(projectStore(s.repo, s.home), id).record;
    const fast = spawnSync("/bin/sh", [hookScript, "claude", "stop", "Stop"], { env: { PATH: "/nonexistent", SPEX_RECORD: record, SPEX_BIN: counter.path, SPEX_SESSION_ID: id }, input: "{}", encoding: "utf8" });
    expect(fast.status).toBe(0);

    // The agent asks: one more each, carrying the question.
    expect(s.spex(["session", "ask", "--session", id, "--note", "Postgres or SQLite?"]).code).toBe(0);
    // Asked again with the same words: unchanged, nothing fires.
    expect(s.spex(["session", "ask", "--session", id, "--note", "Postgres or SQLite?"]).stdout).toContain("unchanged");
    // A transition nobody subscribed to (parked) fires nothing either.
    expect(s.spex(["session", "park", "--session", id, "--note", "waiting for the schema"]).code).toBe(0);
    // A new turn and its failure: one error notification.
    expect(hook(s, id, "turn", "UserPromptSubmit").code).toBe(0);
    expect(hook(s, id, "fail", "StopFailure", { error: "server_error" }).code).toBe(0);
    await waitFor(() => sinks.commandRuns().length >= 3 && sinks.posts.length >= 3, "the asking and error notifications");

    expect(sinks.commandRuns().map((r) => r.event).sort()).toEqual(["asking", "error", "idle"]);
    expect(sinks.posts.map((p) => p.body.event).sort()).toEqual(["asking", "error", "idle"]);
    const asking = sinks.commandRuns().find((r) => r.event === "asking");
    expect(asking).toMatchObject({ note: "Postgres or SQLite?", status: "asking", previous_status: "idle" });
    // Exactly three deliveries were started, by exactly the three writes that changed something.
    expect(spawnedNotifies(counter)).toBe(3);
    expect(counter.calls().filter((c) => c.startsWith("internal hook"))).toEqual([]);
    expect(existsSync(join(s.home, "notify.log"))).toBe(false);
  }, 60000);

  test("two processes making the same declaration: the one whose write changed the record notifies, once", async () => {
    sb = sandbox();
    const s = sb;
    const sinks = await startSinks(s);
    configure(s, sinks);
    const counter = countingBin(s, SPEX_BIN);
    const rec = seedRecord(s.home, s.repo, { status: "active" });
    const runs = await Promise.all(
      Array.from({ length: 4 }, () =>
        new Promise<number>((resolve) => {
          const child = require("node:child_process").spawn(SPEX_BIN, ["session", "ask", "--session", rec.session_id, "--note", "same question"], { cwd: s.repo, env: s.env });
          child.on("close", (code: number) => resolve(code));
        }),
      ),
    );
    expect(runs).toEqual([0, 0, 0, 0]);
    await waitFor(() => sinks.posts.length >= 1 && sinks.commandRuns().length >= 1, "the asking notification");
    expect(spawnedNotifies(counter)).toBe(1);
    expect(sinks.posts.length).toBe(1);
  }, 60000);

  test("the per-session rate limit drops a repeat within the interval and says so in notify.log", async () => {
    sb = sandbox();
    const s = sb;
    const sinks = await startSinks(s);
    configure(s, sinks, { notifyMinIntervalSeconds: 3600 });
    const rec = seedRecord(s.home, s.repo, { status: "active" });
    s.spex(["session", "ask", "--session", rec.session_id, "--note", "first question"]);
    await waitFor(() => sinks.posts.length === 1, "the first asking notification");
    s.spex(["session", "ask", "--session", rec.session_id, "--note", "second question"]);
    const log = join(s.home, "notify.log");
    await waitFor(() => existsSync(log) && readFileSync(log, "utf8").includes("rate limit"), "the drop in notify.log");
    expect(sinks.posts.length).toBe(1);
    expect(sinks.commandRuns().length).toBe(1);
    const line = JSON.parse(readFileSync(log, "utf8").trim().split("\n").pop()!);
    expect(line).toMatchObject({ outcome: "dropped", event: "asking", session: rec.session_id });
  }, 60000);

  test("a sink that fails is logged and shown by doctor; the state write itself succeeds", async () => {
    sb = sandbox();
    const s = sb;
    // A port nothing listens on, and a command that is not there.
    const dead = createServer();
    await new Promise<void>((r) => dead.listen(0, "127.0.0.1", r));
    const port = (dead.address() as AddressInfo).port;
    await new Promise<void>((r) => dead.close(() => r()));
    writeFileSync(join(s.repo, "spexcode.json"), JSON.stringify({ notify: [{ on: ["asking"], webhook: `http://127.0.0.1:${port}/x` }, { on: ["asking"], command: [join(s.dir, "no-such-program")] }] }));
    const rec = seedRecord(s.home, s.repo, { status: "active" });
    const r = s.spex(["session", "ask", "--session", rec.session_id, "--note", "anyone?"]);
    expect(r.code).toBe(0);
    const log = join(s.home, "notify.log");
    await waitFor(() => existsSync(log) && readFileSync(log, "utf8").trim().split("\n").length >= 2, "both failures in notify.log");
    const doctor = JSON.parse(s.spex(["doctor", "--json"]).stdout);
    const check = doctor.checks.find((c: any) => c.name === "notifications");
    expect(check.ok).toBe(false);
    expect(check.detail).toContain("2 failed in the last 24 h");
    expect(check.detail).toContain("notify.log");
  }, 60000);

  test("a notify entry that is a shell string is refused by name, and the state write still lands", () => {
    sb = sandbox();
    const s = sb;
    writeFileSync(join(s.repo, "spexcode.json"), JSON.stringify({ notify: [{ on: ["asking"], command: "notify-send hi" }] }));
    const rec = seedRecord(s.home, s.repo, { status: "active" });
    expect(s.spex(["session", "ask", "--session", rec.session_id, "--note", "q"]).code).toBe(0);
    const doctor = JSON.parse(s.spex(["doctor", "--json"]).stdout);
    const check = doctor.checks.find((c: any) => c.name === "notifications");
    expect(check.ok).toBe(false);
    expect(check.detail).toContain('"command" is the program and its arguments as a list of strings');
  });

  test("tmux: the message shows on the client of the user's own tmux server (not spex's socket), with #(…) in a note kept as text", async () => {
    sb = sandbox();
    const s = sb;
    // The user's own server: the default socket, in a folder of this test's own.
    const userTmux = join(s.dir, "user-tmux");
    require("node:fs").mkdirSync(userTmux, { mode: 0o700 });
    s.env.TMUX_TMPDIR = userTmux;
    const own = (args: string[]) => spawnSync("tmux", ["-f", "/dev/null", ...args], { env: s.env, encoding: "utf8" });
    try {
      expect(own(["new-session", "-d", "-s", "mine", "-x", "160", "-y", "20"]).status).toBe(0);
      // A client of it, in a pane of the sandbox's server (a terminal the test can read).
      s.tmux(["new-session", "-d", "-s", "viewer", "-x", "160", "-y", "20", `env -u TMUX TMUX_TMPDIR='${userTmux}' tmux attach -t mine`]);
      await waitFor(() => own(["list-clients"]).stdout.trim() !== "", "a client on the user's server");
      writeFileSync(join(s.repo, "spexcode.json"), JSON.stringify({ notify: [{ on: ["asking"], builtin: "tmux" }] }));
      const rec = seedRecord(s.home, s.repo, { status: "active", name: "tmux watcher" });
      expect(s.spex(["session", "ask", "--session", rec.session_id, "--note", "keep #(touch pwned) and 100%Y as text?"]).code).toBe(0);
      const screen = await waitFor(() => {
        const text = s.tmux(["capture-pane", "-p", "-t", "viewer"]).stdout;
        return text.includes("tmux watcher") ? text : undefined;
      }, "the message on the user's client");
      expect(screen).toContain("asks you");
      expect(screen).toContain("#(touch pwned)");
      // tmux runs the text through strftime too: %Y stays two characters, not the year.
      expect(screen).toContain("and 100%Y as text?");
      expect(existsSync(join(s.repo, "pwned"))).toBe(false);
      expect(existsSync(join(s.home, "notify.log"))).toBe(false);
    } finally {
      own(["kill-server"]);
    }
  }, 60000);

  test("desktop: notify-send gets the title and the note as two arguments, a note that starts with - included", async () => {
    sb = sandbox();
    const s = sb;
    const bin = join(s.dir, "desktop-bin");
    require("node:fs").mkdirSync(bin);
    const log = join(s.dir, "notify-send.log");
    // Stands in for the OS notification service, which a test machine has no display for. It reads
    // options as notify-send's own parser does: words starting with - until a "--", then the texts.
    writeFileSync(join(bin, "notify-send"), `#!/bin/sh
opts=1
for a in "$@"; do
  if [ "$opts" = 1 ] && [ "$a" = "--" ]; then opts=0; continue; fi
  case "$opts:$a" in 1:-*) printf 'option %s\n' "$a" ;; *) printf '%s\n' "$a" ;; esac
done > '${log}'
`);
    chmodSync(join(bin, "notify-send"), 0o755);
    s.env.PATH = `${bin}:${s.env.PATH}`;
    writeFileSync(join(s.repo, "spexcode.json"), JSON.stringify({ notify: ["desktop"] }));
    const rec = seedRecord(s.home, s.repo, { status: "active", name: "desk" });
    expect(s.spex(["session", "ask", "--session", rec.session_id, "--note=--urgency=critical: it's $(whoami) time; ok?"]).code).toBe(0);
    await waitFor(() => existsSync(log) && readFileSync(log, "utf8").includes("time"), "notify-send's arguments");
    expect(readFileSync(log, "utf8").split("\n")).toEqual(["option --app-name=spex", `spex: desk (${rec.session_id.slice(0, 8)}) asks you`, "--urgency=critical: it's $(whoami) time; ok?", ""]);
  }, 60000);
});

