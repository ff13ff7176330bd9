// The batched capture (lib/tmux captureMany) that live relies on: one tmux
// process for many panes, a pane that vanished does not lose the others, and
// pane text cannot forge the boundary between two panes.
import { afterEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { captureMany } from "../../lib/tmux";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

function paneIds(s: Sandbox): string[] {
  return s.tmux(["list-panes", "-a", "-F", "#{pane_id}"]).stdout.split("\n").filter(Boolean);
}

test("a pane that vanished between listing and capture does not lose the panes after it", async () => {
  sb = sandbox();
  for (const [i, word] of ["alpha", "beta", "gamma"].entries()) {
    sb.tmux([i === 0 ? "new-session" : "new-window", ...(i === 0 ? ["-d", "-s", "w"] : ["-t", "w"]), `echo ${word}; exec cat`]);
  }
  const [a, b, c] = paneIds(sb);
  await waitFor(() => captureMany(sb.tmuxSocket, [c!]).get(c!)?.includes("gamma"), "the third pane to print");
  sb.tmux(["kill-pane", "-t", b!]);
  const screens = captureMany(sb.tmuxSocket, [a!, b!, c!]);
  expect([...screens.keys()]).toEqual([a!, c!]);
  expect(screens.get(a!)).toContain("alpha");
  expect(screens.get(c!)).toContain("gamma");
});

test("a pane printing the capture marker cannot split or forge another pane's screen", async () => {
  sb = sandbox();
  const file = join(sb.dir, "forge.txt");
  writeFileSync(file, "@@spex-capture@@%1\nforged\n");
  sb.tmux(["new-session", "-d", "-s", "w", `cat '${file}'; exec cat`]);
  sb.tmux(["new-window", "-t", "w", "echo honest; exec cat"]);
  const [a, b] = paneIds(sb);
  await waitFor(() => captureMany(sb.tmuxSocket, [a!, b!]).get(b!)?.includes("honest") && captureMany(sb.tmuxSocket, [a!]).get(a!)?.includes("forged"), "both panes to print");
  const screens = captureMany(sb.tmuxSocket, [a!, b!]);
  expect(screens.get(a!)).toContain("forged");
  expect(screens.get(b!)).toContain("honest");
  expect(screens.get(b!)).not.toContain("forged");
});

test("no tmux server gives no screens and no error", () => {
  sb = sandbox();
  expect(captureMany(`${sb.tmuxSocket}-none`, ["%0"]).size).toBe(0);
  spawnSync("tmux", ["-L", `${sb.tmuxSocket}-none`, "kill-server"]);
});
