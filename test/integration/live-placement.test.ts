// Where sessions live in tmux (DESIGN.md §9): spex's own socket by default;
// `SPEX_TMUX=default` or `"tmux": {"socket": "default"}` puts them on the
// user's own server, where `tmux ls` shows them and plain `tmux -t <target>`
// (the target a live row carries) reaches them. And `attach` from inside tmux
// never nests a client: it switches the client on the same server, and opens
// a popup holding an un-nested client for another server. "The user's own
// server" is always an isolated one here: TMUX_TMPDIR points at a temp folder,
// so plain `tmux` never reaches the real default server.
import { afterEach, expect, test } from "bun:test";
import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SPEX_BIN, type Sandbox, sandbox, waitFor } from "../support/sandbox";

let sb: Sandbox;
let tmpdir = "";
let sockets: string[] = [];

afterEach(() => {
  // Every server of the test, wherever TMUX_TMPDIR put it; then the folder.
  for (const s of sockets) spawnSync("tmux", s ? ["-L", s, "kill-server"] : ["kill-server"], { env: userEnv() });
  sockets = [];
  sb?.cleanup();
  if (tmpdir) rmSync(tmpdir, { recursive: true, force: true });
  tmpdir = "";
});

/** The sandbox's environment with the user's own tmux server moved into a temp folder. */
function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { ...(sb?.env ?? {}), TMUX_TMPDIR: tmpdir, ...extra };
}

/** Plain `tmux`, as the user (or an orchestrator reading `target` from live) runs it. */
function plainTmux(args: string[]): SpawnSyncReturns<string> {
  return spawnSync("tmux", args, { env: userEnv(), encoding: "utf8" });
}

function setup(): void {
  sb = sandbox();
  // Short: a socket path must fit in ~100 bytes.
  tmpdir = mkdtempSync("/tmp/spx-");
  // "spex" too: a build that ignored the placement would have put sessions there (inside tmpdir all the same).
  sockets = ["", sb.tmuxSocket, "spex"];
  const launcher = { harness: "shell", command: `sh -c 'echo working on "$1"; exec cat' run` };
  writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ launchers: { echo: launcher } }));
}

function newSession(prompt: string, env: Record<string, string>): { session_id: string; tmux_socket: string; tmux_session: string } {
  const r = sb.spex(["session", "new", prompt, "--launcher", "echo", "--json"], { env: userEnv(env) });
  if (r.code !== 0) throw new Error(`new failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

test("SPEX_TMUX=default, or tmux.socket \"default\" in spexcode.json, puts sessions on the user's own server: tmux ls lists them, plain tmux -t <live target> reaches them", async () => {
  setup();
  const viaEnv = newSession("placed by env", { SPEX_TMUX: "default" });
  writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ launchers: { echo: { harness: "shell", command: `sh -c 'echo working on "$1"; exec cat' run` } }, tmux: { socket: "default" } }));
  const viaConfig = newSession("placed by config", { SPEX_TMUX: "" });
  for (const made of [viaEnv, viaConfig]) expect(made.tmux_socket).toBe("default");

  const listed = plainTmux(["ls", "-F", "#{session_name}"]).stdout.split("\n");
  expect(listed).toEqual(expect.arrayContaining([viaEnv.tmux_session, viaConfig.tmux_session]));

  // live scans the user's own server once, and its rows name targets plain tmux reaches.
  const r = sb.spex(["session", "live", "--json"], { env: userEnv({ SPEX_TMUX: "default" }) });
  expect(r.stderr).toBe("");
  const rows: any[] = JSON.parse(r.stdout);
  for (const [made, prompt] of [[viaEnv, "placed by env"], [viaConfig, "placed by config"]] as const) {
    const mine = rows.filter((row) => row.sessionId === made.session_id);
    expect(mine.map((row) => row.socket)).toEqual([""]);
    const target = mine[0].target;
    await waitFor(() => plainTmux(["capture-pane", "-p", "-t", target]).stdout.includes(`working on ${prompt}`), `${target} to show its prompt`);
    expect(plainTmux(["send-keys", "-t", target, "-l", `reached ${made.tmux_session}`]).status).toBe(0);
    plainTmux(["send-keys", "-t", target, "Enter"]);
    await waitFor(() => plainTmux(["capture-pane", "-p", "-t", target]).stdout.includes(`reached ${made.tmux_session}`), `${target} to echo what plain tmux typed`);
  }
});

test("by default sessions stay on spex's own socket: the user's tmux ls does not show them", () => {
  setup();
  const made = newSession("kept apart", {});
  expect(made.tmux_socket).toBe(sb.tmuxSocket);
  expect(plainTmux(["has-session", "-t", `=${made.tmux_session}`]).status).not.toBe(0);
  expect(spawnSync("tmux", ["-L", sb.tmuxSocket, "has-session", "-t", `=${made.tmux_session}`], { env: userEnv() }).status).toBe(0);
});

test("a project's tmux.socket is found by live run anywhere: every running session's socket is scanned", async () => {
  setup();
  const fleet = `${sb.tmuxSocket}-fleet`;
  sockets.push(fleet);
  writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ launchers: { echo: { harness: "shell", command: `sh -c 'echo working on "$1"; exec cat' run` } }, tmux: { socket: fleet } }));
  const made = newSession("on the fleet socket", { SPEX_TMUX: "" });
  expect(made.tmux_socket).toBe(fleet);
  // From outside the project (no spexcode.json there), with no SPEX_TMUX: the record names the socket.
  const r = sb.spex(["session", "live", "--json"], { env: userEnv({ SPEX_TMUX: "" }), cwd: sb.dir });
  expect(r.stderr).toBe("");
  const rows: any[] = JSON.parse(r.stdout);
  expect(rows.filter((row) => row.sessionId === made.session_id).map((row) => [row.socket, row.target])).toEqual([[fleet, `${made.tmux_session}:0.0`]]);
});

/**
 * A person in tmux: a client of the user's own server (session `work`, a
 * shell), itself running in a pane of a third, outer server that stands in
 * for the terminal. Returns a way to type a command line into `work`.
 */
async function personInTmux(): Promise<{ type(line: string): void; clients(socket: string): string[] }> {
  const outer = `${sb.tmuxSocket}-outer`;
  sockets.push(outer);
  expect(plainTmux(["-f", "/dev/null", "new-session", "-d", "-s", "work", "-x", "150", "-y", "40", "sh"]).status).toBe(0);
  const attach = `env -u TMUX TMUX_TMPDIR='${tmpdir}' tmux attach-session -t =work`;
  spawnSync("tmux", ["-L", outer, "-f", "/dev/null", "new-session", "-d", "-x", "160", "-y", "45", attach], { env: userEnv() });
  const clients = (socket: string) =>
    spawnSync("tmux", [...(socket ? ["-L", socket] : []), "list-clients", "-F", "#{client_session}"], { env: userEnv(), encoding: "utf8" }).stdout.split("\n").filter(Boolean);
  await waitFor(() => clients("").join() === "work", "the person's client to attach to work");
  return {
    clients,
    type(line) {
      plainTmux(["send-keys", "-t", "=work:", "-l", line]);
      plainTmux(["send-keys", "-t", "=work:", "Enter"]);
    },
  };
}

test("attach from inside tmux on the same server switches the client: no second client, no nesting", async () => {
  setup();
  const made = newSession("switch to me", { SPEX_TMUX: "default" });
  const person = await personInTmux();
  person.type(`cd '${sb.repo}' && '${SPEX_BIN}' session attach ${made.session_id.slice(0, 8)}`);
  await waitFor(() => person.clients("").join() === made.tmux_session, "the client to switch to the session");
  expect(person.clients("")).toEqual([made.tmux_session]);
});

test("attach from inside tmux to a session on another server opens it in a popup, the person's client staying where it was", async () => {
  setup();
  const made = newSession("pop me up", {});
  const person = await personInTmux();
  person.type(`cd '${sb.repo}' && '${SPEX_BIN}' session attach ${made.session_id.slice(0, 8)}`);
  // The popup's client is a client of spex's server, attached to the session; the person's own client did not move.
  await waitFor(() => person.clients(sb.tmuxSocket).join() === made.tmux_session, "a client of spex's server on the session");
  expect(person.clients("")).toEqual(["work"]);
  expect(person.clients(sb.tmuxSocket)).toEqual([made.tmux_session]);
  // Not a client nested in the person's pane: its terminal is none of the user's server's panes.
  const clientTty = spawnSync("tmux", ["-L", sb.tmuxSocket, "list-clients", "-F", "#{client_tty}"], { env: userEnv(), encoding: "utf8" }).stdout.trim();
  const paneTtys = plainTmux(["list-panes", "-a", "-F", "#{pane_tty}"]).stdout.split("\n").filter(Boolean);
  expect(paneTtys.length).toBeGreaterThan(0);
  expect(paneTtys).not.toContain(clientTty);
});
