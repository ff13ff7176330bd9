// The batched captures (lib/tmux captureMany, listAndCaptureAll) that live
// relies on: one tmux process for many panes, a pane that vanished does not
// lose the others, and pane text cannot forge the boundary between two panes.
import { afterEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { captureMany, listAndCaptureAll } from "../../lib/tmux";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { PaneStage, openPanes, waitForScreens } from "../support/panes";

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
  // Both the old marker and the current one's shape (with a guessed nonce).
  writeFileSync(file, "@@spex-capture@@%1\n@@0123456789ab@@1 %1\nforged\n");
  sb.tmux(["new-session", "-d", "-s", "w", `cat '${file}'; exec cat`]);
  sb.tmux(["new-window", "-t", "w", "echo honest; exec cat"]);
  const [a, b] = paneIds(sb);
  await waitFor(() => captureMany(sb.tmuxSocket, [a!, b!]).get(b!)?.includes("honest") && captureMany(sb.tmuxSocket, [a!]).get(a!)?.includes("forged"), "both panes to print");
  const screens = captureMany(sb.tmuxSocket, [a!, b!]);
  expect(screens.get(a!)).toContain("forged");
  expect(screens.get(b!)).toContain("honest");
  expect(screens.get(b!)).not.toContain("forged");
});

test("a dozen panes each get their own screen, by pane id, whatever % and # their text holds", async () => {
  sb = sandbox();
  for (let i = 0; i < 12; i++) {
    sb.tmux([i === 0 ? "new-session" : "new-window", ...(i === 0 ? ["-d", "-s", "w"] : ["-t", "w"]), `echo 'pane ${i} at 100% #{pane_id} %H'; exec cat`]);
  }
  const ids = paneIds(sb);
  expect(ids).toHaveLength(12);
  const own = (screens: Map<string, string>) => ids.map((id, i) => [id, screens.get(id)?.trim()]).filter(([, text], i) => text !== `pane ${i} at 100% #{pane_id} %H`);
  await waitFor(() => own(captureMany(sb.tmuxSocket, ids)).length === 0, "every pane to show its own line");
  expect(own(captureMany(sb.tmuxSocket, ids))).toEqual([]);
  // Targets that name a session (`=name:`) come back under the pane id tmux resolved them to.
  const bySession = captureMany(sb.tmuxSocket, ["=w:"]);
  const current = sb.tmux(["display-message", "-p", "-t", "=w:", "#{pane_id}"]).stdout.trim();
  expect([...bySession.keys()]).toEqual([current]);
});

test("300 panes, more than one tmux command list can carry, each get their own screen", async () => {
  sb = sandbox();
  const stage = new PaneStage(join(sb.dir, "stage"));
  const ids = openPanes(stage, sb.tmuxSocket, "many", Array.from({ length: 300 }, (_, i) => ({ text: `screen ${i}` })), { width: 40, height: 5 });
  const expected = new Map(ids.map((id, i) => [id, `screen ${i}`]));
  await waitForScreens(sb.tmuxSocket, expected);
  const screens = captureMany(sb.tmuxSocket, ids);
  expect(ids.filter((id) => screens.get(id)?.trim() !== expected.get(id))).toEqual([]);
});

test("no tmux server gives no screens and no error", () => {
  sb = sandbox();
  expect(captureMany(`${sb.tmuxSocket}-none`, ["%0"]).size).toBe(0);
  spawnSync("tmux", ["-L", `${sb.tmuxSocket}-none`, "kill-server"]);
});

// listAndCaptureAll: the list and every pane's screen from one tmux process, the captures generated inside tmux.
const LIST = ["list-panes", "-a", "-F", "#{pane_id}"];

test("every pane's screen comes with the list, by pane id, whatever % # ; and quotes the text holds", async () => {
  sb = sandbox();
  const text = (i: number) => `pane ${i} at 100% #{pane_id} %H ; "q" 'q' \\`;
  const stage = new PaneStage(join(sb.dir, "stage"));
  const ids = openPanes(stage, sb.tmuxSocket, "w", Array.from({ length: 12 }, (_, i) => ({ text: text(i), split: i % 3 === 1 })), { width: 60, height: 20 });
  await waitForScreens(sb.tmuxSocket, new Map(ids.map((id, i) => [id, text(i).replace(/\s+/g, " ")])));
  const r = await listAndCaptureAll(sb.tmuxSocket, LIST);
  expect(r).toMatchObject({ ok: true, complete: true });
  expect(r.prelude!.split("\n")).toEqual(paneIds(sb));
  expect([...r.screens.keys()].sort()).toEqual([...ids].sort());
  expect(ids.filter((id, i) => r.screens.get(id)?.trim() !== text(i))).toEqual([]);
});

test("pane text that prints marker-shaped lines cannot split or forge another pane's screen in the one-process capture", async () => {
  sb = sandbox();
  const file = join(sb.dir, "forge.txt");
  writeFileSync(file, "@@0123456789ab@@%1\n@@0123456789ab@@begin\n@@0123456789ab@@1 %1\nforged\n");
  sb.tmux(["new-session", "-d", "-s", "w", `cat '${file}'; exec cat`]);
  sb.tmux(["new-window", "-t", "w", "echo honest; exec cat"]);
  const [a, b] = paneIds(sb);
  await waitFor(async () => {
    const s = (await listAndCaptureAll(sb.tmuxSocket, LIST)).screens;
    return s.get(a!)?.includes("forged") && s.get(b!)?.includes("honest");
  }, "both panes to print");
  const r = await listAndCaptureAll(sb.tmuxSocket, LIST);
  expect(r.screens.get(a!)).toContain("@@0123456789ab@@%1\n@@0123456789ab@@begin");
  expect(r.screens.get(a!)).toContain("forged");
  expect(r.screens.get(b!)).toContain("honest");
  expect(r.screens.get(b!)).not.toContain("forged");
  expect(r.prelude!.split("\n")).toEqual([a!, b!]);
});

test("a pane that vanishes after the list leaves the panes before it captured and says the capture is incomplete", async () => {
  sb = sandbox();
  for (const [i, word] of ["alpha", "beta", "gamma"].entries()) {
    sb.tmux([i === 0 ? "new-session" : "new-window", ...(i === 0 ? ["-d", "-s", "w"] : ["-t", "w"]), `echo ${word}; exec cat`]);
  }
  const [a, b, c] = paneIds(sb);
  await waitFor(() => captureMany(sb.tmuxSocket, [c!]).get(c!)?.includes("gamma"), "the third pane to print");
  // A background run-shell in the prelude kills the second pane after the captures were generated, before they run.
  const r = await listAndCaptureAll(sb.tmuxSocket, [...LIST, ";", "run-shell", "-b", "-C", `kill-pane -t ${b}`]);
  expect(r).toMatchObject({ ok: true, complete: false });
  expect(r.prelude!.split("\n")).toEqual([a!, b!, c!]);
  expect([...r.screens.keys()]).toEqual([a!]);
  expect(r.screens.get(a!)).toContain("alpha");
});

test("the list is handed over once and whole while the screens are still coming, however many reads it takes", async () => {
  sb = sandbox();
  const stage = new PaneStage(join(sb.dir, "stage"));
  const ids = openPanes(stage, sb.tmuxSocket, "w", Array.from({ length: 12 }, (_, i) => ({ text: `pane ${i}` })), { width: 60, height: 20 });
  await waitForScreens(sb.tmuxSocket, new Map(ids.map((id, i) => [id, `pane ${i}`])));
  // 12 lines of 10 KB: more than one read of the pipe, so the marker after them is looked for across reads.
  const wide = ["list-panes", "-a", "-F", `#{pane_id} ${"x".repeat(10000)}`];
  const handed: string[] = [];
  const r = await listAndCaptureAll(sb.tmuxSocket, wide, (prelude) => handed.push(prelude));
  expect(r).toMatchObject({ ok: true, complete: true });
  expect(handed).toEqual([r.prelude!]);
  expect(handed[0]!.split("\n").map((l) => l.split(" ")[0])).toEqual(paneIds(sb));
  expect([...r.screens.keys()].sort()).toEqual([...ids].sort());
});

test("no tmux server: the one-process capture is not ok and has no screens", async () => {
  sb = sandbox();
  const r = await listAndCaptureAll(`${sb.tmuxSocket}-none`, LIST);
  expect(r).toMatchObject({ ok: false, complete: false, prelude: undefined });
  expect(r.screens.size).toBe(0);
  spawnSync("tmux", ["-L", `${sb.tmuxSocket}-none`, "kill-server"]);
});
