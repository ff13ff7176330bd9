// The test harness's own promise: a run stopped by SIGTERM or SIGINT (a
// `timeout`, Ctrl-C) skips its afterEach, yet leaves no tmux server of its
// sandboxes running (with each session's agent and watcher under it).
import { expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../support/sandbox";

const BUN = join(__dirname, "../../node_modules/.bin/bun");
const HELD = join(__dirname, "../fixtures/sandbox/held.ts");

for (const [signal, code] of [["SIGTERM", 143], ["SIGINT", 130]] as const) {
  test(`a test process stopped by ${signal} ends its sandboxes' tmux servers and removes their folders`, async () => {
    const child = spawn(BUN, [HELD], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
    const held = await waitFor(() => (out.includes("\n") ? (JSON.parse(out) as { socket: string; dir: string }) : undefined), "the sandbox to be made", 20000);
    const alive = () => spawnSync("tmux", ["-L", held.socket, "has-session", "-t", "=held"]).status === 0;
    expect(alive()).toBe(true);
    child.kill(signal);
    expect(await exited).toBe(code);
    expect(alive()).toBe(false);
    expect(existsSync(held.dir)).toBe(false);
  });
}
