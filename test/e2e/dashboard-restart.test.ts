// Survive a restart (issue 24 item 3), in the browser: an open tab whose
// backend stops and starts again reconnects by itself (same port, same
// token) and stays live; after `serve --rotate-token` it says it needs the
// token and takes the new URL pasted into it; and while another program
// answers on the port, the tab keeps knocking without ever showing it the
// token (it asks the listener to prove it holds the token first, as the CLI
// does).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { waitFor } from "../support/sandbox";
import { serve } from "../integration/backend-support";
import { IMPOSTOR, impostorLog, otherUser } from "../integration/backend-other-user";
import { type Fleet, fleet, shots, textOf } from "./dashboard-support";

declare const document: any;

let f: Fleet;
let page: Page;
let id = "";

beforeAll(async () => {
  f = await fleet();
  page = f.page;
  id = (await f.session("echo restart-ready", ["--name", "survivor"])).id;
  await page.goto(f.be.dashboard);
  await page.waitForSelector("#conn.up");
  await page.waitForSelector(`tr.row[data-id="${id}"]`);
  await page.evaluate(() => ((globalThis as any).__sameDocument = true));
});

afterAll(async () => {
  await f?.close();
});

async function restart(args: string[] = []): Promise<void> {
  await f.be.stop();
  await page.waitForSelector("#conn.down", { timeout: 10000 });
  f.be = await serve(f.sb, { args });
}

const labelIs = (name: string) => page.waitForFunction(([i, n]) => document.querySelector(`tr.row[data-id="${i}"] .label`)?.textContent === n, [id, name], { timeout: 20000 });

test("a tab open across a restart reconnects by itself and stays live, without a reload", async () => {
  const before = { url: f.be.url, token: f.be.token };
  await restart();
  expect({ url: f.be.url, token: f.be.token }).toEqual(before);
  await page.waitForSelector("#conn.up", { timeout: 20000 });
  await f.cli(["session", "rename", id, "renamed after the restart"]);
  await labelIs("renamed after the restart");
  expect(await page.evaluate(() => (globalThis as any).__sameDocument)).toBe(true);
  // A reload after the restart is in too (the tab kept its token).
  await page.reload();
  await page.waitForSelector("#conn.up");
  await labelIs("renamed after the restart");
  await page.evaluate(() => ((globalThis as any).__sameDocument = true));
});

test("typing on in the terminal after a restart, with no click, reaches the pane: the keyboard is asked for again", async () => {
  const tmux = JSON.parse(await f.cli(["session", "ls", "--json"])).find((r: any) => r.id === id).tmuxSession;
  const shows = (line: string) => f.sb.tmux(["capture-pane", "-p", "-J", "-t", `=${tmux}:`]).stdout.split("\n").includes(line);
  await page.locator(`tr.row[data-id="${id}"]`).click();
  await page.locator("#tab-terminal").click();
  await page.waitForFunction(() => document.getElementById("term-status")?.textContent === "live", undefined, { timeout: 10000 });
  await page.locator("#term").click();
  await page.waitForFunction(() => document.getElementById("term-writer")?.textContent === "you type here", undefined, { timeout: 5000 });
  await page.keyboard.type("echo typed-before-the-restart");
  await page.keyboard.press("Enter");
  await waitFor(() => shows("typed-before-the-restart"), "the first command's output", 15000);
  await restart();
  await page.waitForSelector("#conn.up", { timeout: 20000 });
  await page.waitForFunction(() => document.getElementById("term-status")?.textContent === "live", undefined, { timeout: 20000 });
  // The keyboard is still in the terminal; the restarted backend has forgotten who wrote.
  expect(await page.evaluate(() => !!document.activeElement?.closest?.("#term"))).toBe(true);
  await page.keyboard.type("echo typed-after-the-restart");
  await page.keyboard.press("Enter");
  await waitFor(() => shows("typed-after-the-restart"), "what was typed after the restart, run in the pane", 15000).catch(async (e: Error) => {
    throw new Error(`${e.message}; the bar: ${await textOf(page, "#term-writer")} / ${await textOf(page, "#term-note")}`);
  });
  expect(await textOf(page, "#term-writer")).toBe("you type here");
  await page.locator("#tab-overview").click();
  await page.locator("#d-close-panel").click();
});

test("a panel open on a session closed while the backend was down closes when the tab is back, and says why", async () => {
  const gone = await f.session("echo closed-while-down", ["--name", "closed while down"]);
  await page.locator(`tr.row[data-id="${gone.id}"]`).click();
  await page.waitForSelector("#detail:not([hidden])");
  await f.be.stop();
  await page.waitForSelector("#conn.down", { timeout: 10000 });
  // Its removal is never an event this tab hears: the backend that would send it is down.
  await f.cli(["session", "close", gone.id, "--force"]);
  f.be = await serve(f.sb);
  await page.waitForSelector("#conn.up", { timeout: 20000 });
  await page.waitForFunction((i) => !document.querySelector(`tr.row[data-id="${i}"]`), gone.id, { timeout: 10000 });
  // Not a panel on a session that is no more, with buttons that act on nothing.
  await page.waitForSelector("#detail", { state: "hidden", timeout: 10000 });
  expect(await page.evaluate(() => (globalThis as any).location.hash)).toBe("");
  expect(await textOf(page, "#outcomes")).toContain("closed while down");
  expect(await page.evaluate(() => (globalThis as any).__sameDocument)).toBe(true);
});

test("while another program answers on the port, the tab never sends it the token, and gets back in once the backend is back", async () => {
  const port = new URL(f.be.url).port;
  await f.be.stop();
  await page.waitForSelector("#conn.down", { timeout: 10000 });
  const other = otherUser();
  const log = join(other.dir, "impostor.ndjson");
  const impostor = await other.start(IMPOSTOR, [port, log, f.sb.repo]);
  try {
    // The tab knocks (the impostor is asked to prove itself) and says who answers.
    await waitFor(() => impostorLog(log).some((q) => q.url.startsWith("/api/instance?challenge=")), "the tab to ask the listener for its proof", 20000);
    await page.waitForFunction(() => /not your backend/.test(document.getElementById("conn")?.textContent ?? ""), undefined, { timeout: 20000 });
    await shots(page, "dashboard-restart-impostor");
    // Whatever the page does meanwhile (a panel open asks for the screen, the timeline), the token stays home.
    await page.locator(`tr.row[data-id="${id}"]`).click();
    await waitFor(() => impostorLog(log).filter((q) => q.url.startsWith("/api/instance")).length >= 2, "a second knock", 20000);
    const asked = impostorLog(log);
    expect(asked.filter((q) => q.headers.authorization !== undefined)).toEqual([]);
    expect(JSON.stringify(asked)).not.toContain(f.be.token);
    expect(asked.filter((q) => !q.url.startsWith("/api/instance")).map((q) => q.url)).toEqual([]);
  } finally {
    await impostor.stop();
    other.cleanup();
  }
  f.be = await serve(f.sb);
  await page.waitForSelector("#conn.up", { timeout: 20000 });
  await f.cli(["session", "rename", id, "back after the impostor"]);
  await labelIs("back after the impostor");
  await page.locator("#d-close-panel").click();
});

test("after serve --rotate-token the tab does not send its old token, says why, and the URL spex dashboard prints, pasted in, lets it back in", async () => {
  const old = f.be.token;
  const sent: string[] = [];
  page.on("request", (r) => void (r.headers().authorization && sent.push(r.headers().authorization!)));
  await restart(["--rotate-token"]);
  expect(f.be.token).not.toBe(old);
  await page.waitForSelector("#token-form:not([hidden])", { timeout: 20000 });
  expect(await textOf(page, "#conn")).toContain("not your backend");
  expect(await textOf(page, "#notice")).toContain("--rotate-token");
  expect(sent).toEqual([]);
  await shots(page, "dashboard-restart-locked");
  const url = (await f.cli(["dashboard"])).trim();
  await page.locator("#token-input").fill(url);
  await page.locator("#token-use").click();
  await page.waitForSelector("#conn.up", { timeout: 10000 });
  await labelIs("back after the impostor");
  expect(page.url()).not.toContain("token=");
});
