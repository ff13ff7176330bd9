// live's tmux calls start as the process starts, before the project config is
// read (lib/live/early.ts): a call the scan does not end up wanting must leave
// no trace in what live prints, and must not keep live waiting.
import { afterEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";

let sb: Sandbox;
let tmuxDir = "";
const NAMES = ["spex", "default", "elsewhere"];

afterEach(() => {
  for (const name of NAMES) spawnSync("tmux", ["-L", name, "kill-server"], { env: { ...process.env, TMUX_TMPDIR: tmuxDir } });
  sb?.cleanup();
});

/** A server of its own name in the test's private tmux folder, one pane showing `pane of <name>`. */
function serverShowing(name: string): void {
  const env = { ...sb.env, TMUX_TMPDIR: tmuxDir };
  const r = spawnSync("tmux", ["-L", name, "-f", "/dev/null", "new-session", "-d", "-s", "only", "-x", "80", "-y", "10", `printf 'pane of ${name}\\n'; exec cat`], { env, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`tmux -L ${name}: ${r.stderr}`);
}

function screenOf(name: string): string {
  return spawnSync("tmux", ["-L", name, "capture-pane", "-p", "-t", "only:"], { env: { ...sb.env, TMUX_TMPDIR: tmuxDir }, encoding: "utf8" }).stdout;
}

/** A sandbox whose private tmux folder has the three servers up, each pane showing its line. */
async function threeServers(): Promise<void> {
  sb = sandbox();
  tmuxDir = join(sb.dir, "tmux");
  mkdirSync(tmuxDir);
  for (const name of NAMES) serverShowing(name);
  await waitFor(() => NAMES.every((name) => screenOf(name).includes(`pane of ${name}`)), "every pane to show its line");
}

/** live's rows as [server, last line], sorted. */
function rowsOf(stdout: string): string[][] {
  return (JSON.parse(stdout) as { socket: string; lastVisibleLine: string }[]).map((row) => [row.socket, row.lastVisibleLine]).sort();
}

test("the project config names another spex socket: the call started early for `spex` is dropped, and live shows the config's server and the user's own", async () => {
  await threeServers();
  writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ tmux: { socket: "elsewhere" } }));
  // No SPEX_TMUX and no SPEX_TMUX_SERVERS: the scan is the spex socket of the config, the user's own server and nothing else.
  const r = sb.spex(["session", "live", "--json"], { env: { TMUX_TMPDIR: tmuxDir, SPEX_TMUX: "" } });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(rowsOf(r.stdout)).toEqual([
    ["", "pane of default"],
    ["elsewhere", "pane of elsewhere"],
  ]);
});

test("without a config the early calls are the whole scan: the spex socket and the user's own server, each listed once", async () => {
  await threeServers();
  const r = sb.spex(["session", "live", "--json", "--status", "active,idle,needs_attention,dead"], { env: { TMUX_TMPDIR: tmuxDir, SPEX_TMUX: "" } });
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  expect(rowsOf(r.stdout)).toEqual([
    ["", "pane of default"],
    ["spex", "pane of spex"],
  ]);
});
