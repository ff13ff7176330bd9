// `spex session live` against real tmux servers: one list-panes per server and
// one batched capture, contract-shaped rows, governed panes, prefilters, and
// pane text that stays display data.
import { afterEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, SPEX_BIN, sandbox, waitFor } from "../support/sandbox";
import { seedRecord } from "../support/records";
import { contractErrors, isLiveRow, isSpexLiveRowExtras } from "../support/contract";
import { PaneStage, openPanes, waitForScreens } from "../support/panes";

let sb: Sandbox;
let other = "";
afterEach(() => {
  if (other) spawnSync("tmux", ["-L", other, "kill-server"]);
  other = "";
  sb?.cleanup();
});

/** A `tmux` first on PATH that logs each call, then runs the real one. */
function tmuxCounter(s: Sandbox): { env: Record<string, string>; calls(): string[] } {
  const real = spawnSync("sh", ["-c", "command -v tmux"], { encoding: "utf8" }).stdout.trim();
  const dir = join(s.dir, "tmux-wrapper");
  mkdirSync(dir, { recursive: true });
  const log = join(s.dir, "tmux-calls.log");
  writeFileSync(join(dir, "tmux"), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(join(dir, "tmux"), 0o755);
  return {
    env: { PATH: `${dir}:${process.env.PATH}` },
    calls: () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []),
  };
}

/** Both scans point at isolated servers: the sandbox's and a stand-in for the user's default one. */
function servers(s: Sandbox): Record<string, string> {
  other = `${s.tmuxSocket}-user`;
  return { SPEX_TMUX_SERVERS: `${s.tmuxSocket},${other}` };
}

function tmuxOk(s: Sandbox, args: string[]): string {
  const r = s.tmux(args);
  if (r.status !== 0) throw new Error(`tmux ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

function live(s: Sandbox, args: string[], env: Record<string, string>): any[] {
  const r = s.spex(["session", "live", "--json", ...args], { env });
  if (r.code !== 0) throw new Error(`live failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

test("50 panes are observed with at most 2 tmux processes (a server that is not running costs none), every row matching the contract", () => {
  sb = sandbox();
  const batch: string[] = ["new-session", "-d", "-s", "fleet", "-x", "80", "-y", "10", "cat"];
  for (let i = 1; i < 50; i++) batch.push(";", "new-window", "-t", "fleet", "cat");
  tmuxOk(sb, batch);
  const counter = tmuxCounter(sb);
  const rows = live(sb, [], { ...servers(sb), ...counter.env });
  expect(rows).toHaveLength(50);
  for (const row of rows) {
    expect(contractErrors(isLiveRow, row)).toEqual([]);
    expect(contractErrors(isSpexLiveRowExtras, row)).toEqual([]);
  }
  expect(rows[0]).toMatchObject({ session: "fleet", command: "cat", status: "active", statusRule: "generic.foreground", isOpenSession: false, sessionId: null, socket: sb.tmuxSocket });
  // The second server never ran (no socket file): learning that starts no tmux process.
  const calls = counter.calls();
  expect(calls.length).toBeLessThanOrEqual(2);
  expect(calls.filter((c) => c.includes("list-panes -a"))).toHaveLength(1);
  expect(calls.filter((c) => c.includes("capture-pane"))).toHaveLength(1);
});

test("pane text that looks like commands is reported verbatim in lastVisibleLine and nothing runs", async () => {
  sb = sandbox();
  const canary = join(sb.env.HOME!, "canary");
  writeFileSync(canary, "still here\n");
  const sentinel = join(sb.dir, "pwned");
  const lines = {
    rm: "$(rm -rf ~)",
    fake: `sessions live --json --once; touch ${sentinel} $(touch ${sentinel}) \`touch ${sentinel}\``,
  };
  for (const [name, text] of Object.entries(lines)) {
    const file = join(sb.dir, `${name}.txt`);
    writeFileSync(file, `earlier output\n${text}\n`);
    tmuxOk(sb, ["new-session", "-d", "-s", name, "-x", "160", "-y", "10", `cat '${file}'; exec cat`]);
  }
  const env = servers(sb);
  let rows: any[] = [];
  await waitFor(() => (rows = live(sb, [], env)).every((r) => r.lastVisibleLine !== null), "both panes to print");
  for (const [name, text] of Object.entries(lines)) {
    expect(rows.find((r) => r.session === name)?.lastVisibleLine).toBe(text);
  }
  for (const args of [["session", "live"], ["session", "bulk", "status"], ["session", "bulk", "capture", "--json"], ["session", "bulk", "doctor"]]) {
    const r = sb.spex(args, { env });
    expect(r.code).toBe(0);
  }
  const capture = JSON.parse(sb.spex(["session", "bulk", "capture", "--json"], { env }).stdout);
  expect(capture.entries.find((e: any) => e.target.startsWith("rm:")).capture).toContain(lines.rm);
  expect(existsSync(sentinel)).toBe(false);
  expect(readFileSync(canary, "utf8")).toBe("still here\n");
});

test("a pane of a spex session takes its lifecycle, its project and its id; prefilters apply before capture", () => {
  sb = sandbox();
  const asking = join(sb.repo, ".worktrees", "asking");
  const archived = join(sb.repo, ".worktrees", "archived");
  mkdirSync(asking, { recursive: true });
  mkdirSync(archived, { recursive: true });
  const open = seedRecord(sb.home, sb.repo, { worktree_path: asking, tmux_socket: sb.tmuxSocket, tmux_session: "gov-asking", status: "asking" });
  const old = seedRecord(sb.home, sb.repo, { worktree_path: archived, tmux_socket: sb.tmuxSocket, tmux_session: "gov-archived", status: "idle", archived: true });
  // A pane nobody governs, in a linked worktree of the same repository.
  const linked = join(sb.dir, "linked");
  sb.git(["worktree", "add", "-q", "-b", "side", linked]);
  tmuxOk(sb, ["new-session", "-d", "-s", "gov-asking", "-c", asking, "sleep 100000"]);
  tmuxOk(sb, ["new-session", "-d", "-s", "gov-archived", "-c", archived, "sleep 100000"]);
  tmuxOk(sb, ["new-session", "-d", "-s", "foreign", "-c", linked, "sleep 100000"]);
  const env = servers(sb);

  const all = live(sb, [], env);
  const byName = Object.fromEntries(all.map((r) => [r.session, r]));
  expect(byName["gov-asking"]).toMatchObject({ status: "needs_attention", statusRule: "governed.lifecycle", isOpenSession: true, sessionId: open.session_id, projectPath: sb.repo, harness: "shell" });
  expect(byName["gov-archived"]).toMatchObject({ status: "idle", isOpenSession: false, sessionId: old.session_id });
  expect(byName["foreign"]).toMatchObject({ cwd: linked, projectPath: sb.repo, projectSlug: "repo", isOpenSession: false, sessionId: null });

  const counter = tmuxCounter(sb);
  const openOnly = live(sb, ["--open-only"], { ...env, ...counter.env });
  expect(openOnly.map((r) => r.session)).toEqual(["gov-asking"]);
  const captures = counter.calls().filter((c) => c.includes("capture-pane"));
  expect(captures).toHaveLength(1);
  expect(captures[0]!.match(/capture-pane/g)).toHaveLength(1);

  expect(live(sb, ["--status", "needs_attention"], env).map((r) => r.session)).toEqual(["gov-asking"]);
  expect(live(sb, ["--project", "repo"], env)).toHaveLength(3);
  expect(live(sb, ["--project", linked], env)).toHaveLength(3);
  expect(live(sb, ["--project", "elsewhere"], env)).toEqual([]);
  expect(live(sb, ["--machine", "not-this-machine"], env)).toEqual([]);
});

test("sessions live --json --once through the argv0 name gives the same rows", () => {
  sb = sandbox();
  tmuxOk(sb, ["new-session", "-d", "-s", "one", "sleep 100000"]);
  const link = join(sb.dir, "sessions");
  symlinkSync(SPEX_BIN, link);
  const r = spawnSync(link, ["live", "--json", "--once"], { cwd: sb.repo, env: { ...sb.env, ...servers(sb) }, encoding: "utf8" });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  const rows = JSON.parse(r.stdout);
  expect(rows.map((x: any) => x.session)).toEqual(["one"]);
});

test("--watch --json prints one JSON array per observation", () => {
  sb = sandbox();
  tmuxOk(sb, ["new-session", "-d", "-s", "one", "sleep 100000"]);
  const r = sb.spex(["session", "live", "--watch", "--interval", "0.1", "--count", "2", "--json"], { env: servers(sb) });
  expect(r.code).toBe(0);
  const lines = r.stdout.trim().split("\n");
  expect(lines).toHaveLength(2);
  for (const line of lines) expect(JSON.parse(line).map((x: any) => x.session)).toEqual(["one"]);
});

test("an unknown --status is a usage error naming the allowed statuses", () => {
  sb = sandbox();
  const r = sb.spex(["session", "live", "--status", "busy"], { env: servers(sb) });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("needs_attention");
});

test("with panes on both servers, every screen comes with its server's list: 2 tmux processes in all", async () => {
  sb = sandbox();
  const env = servers(sb);
  // Two governed sessions on the spex socket, each printing a line we expect back as its last visible line.
  for (const name of ["gov-one", "gov-two"]) {
    const wt = join(sb.repo, ".worktrees", name);
    mkdirSync(wt, { recursive: true });
    seedRecord(sb.home, sb.repo, { worktree_path: wt, tmux_socket: sb.tmuxSocket, tmux_session: name, status: "idle" });
    tmuxOk(sb, ["new-session", "-d", "-s", name, "-c", wt, `sh -c 'echo screen of ${name}; exec sleep 100000'`]);
  }
  // Panes nobody governs on the stand-in for the user's default server.
  spawnSync("tmux", ["-L", other, "-f", "/dev/null", "new-session", "-d", "-s", "mine", "cat", ";", "new-window", "-t", "mine", "cat"]);
  const lines = (name: string) => sb.tmux(["capture-pane", "-p", "-t", `=${name}:`]).stdout.includes(`screen of ${name}`);
  for (const name of ["gov-one", "gov-two"]) await waitFor(() => lines(name), `${name} to print`);
  const counter = tmuxCounter(sb);
  const rows = live(sb, [], { ...env, ...counter.env });
  expect(rows.map((r) => r.session).sort()).toEqual(["gov-one", "gov-two", "mine", "mine"]);
  expect(rows.find((r) => r.session === "gov-one").lastVisibleLine).toBe("screen of gov-one");
  expect(rows.find((r) => r.session === "gov-two").lastVisibleLine).toBe("screen of gov-two");
  expect(counter.calls()).toHaveLength(2);
});

/** `count` panes on the sandbox's server, each showing a line of its own; the line by pane id. */
async function fleet(s: Sandbox, count: number): Promise<Map<string, string>> {
  const shows = Array.from({ length: count }, (_, i) => ({ text: `work ${i}\nstep ${i} of ${count}: 100% #{pane_id} ; "done"`, command: i % 2 ? "bash" : "worker" }));
  const ids = openPanes(new PaneStage(join(s.dir, "stage")), s.tmuxSocket, "fleet", shows, { width: 80, height: 12 });
  const expected = new Map(ids.map((id, i) => [id, `step ${i} of ${count}: 100% #{pane_id} ; "done"`]));
  await waitForScreens(s.tmuxSocket, expected);
  return expected;
}

test("with no filter before the capture, a server's list and all its screens come from one tmux process", async () => {
  sb = sandbox();
  const expected = await fleet(sb, 40);
  const counter = tmuxCounter(sb);
  const rows = live(sb, [], { ...servers(sb), ...counter.env });
  expect(rows).toHaveLength(40);
  expect(rows.filter((r) => expected.get(r.paneId) !== r.lastVisibleLine)).toEqual([]);
  expect(counter.calls()).toHaveLength(1);
});

test("a tmux without run-shell -C (before 3.2) still gets every screen, from a list and a batched capture", async () => {
  sb = sandbox();
  const expected = await fleet(sb, 12);
  const real = spawnSync("sh", ["-c", "command -v tmux"], { encoding: "utf8" }).stdout.trim();
  const dir = join(sb.dir, "old-tmux");
  mkdirSync(dir, { recursive: true });
  // What tmux 3.1 answers to a command list holding `run-shell -C`: a parse error, and nothing of the list runs.
  writeFileSync(join(dir, "tmux"), `#!/bin/sh\nfor a; do [ "$a" = run-shell ] && { echo 'command run-shell: unknown flag -C' >&2; exit 1; }; done\nexec '${real}' "$@"\n`);
  chmodSync(join(dir, "tmux"), 0o755);
  const rows = live(sb, [], { ...servers(sb), PATH: `${dir}:${process.env.PATH}` });
  expect(rows).toHaveLength(12);
  expect(rows.filter((r) => expected.get(r.paneId) !== r.lastVisibleLine)).toEqual([]);
});
