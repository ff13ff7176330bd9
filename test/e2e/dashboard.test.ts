// The dashboard in a real browser: Debian's chromium driven by playwright-core
// against `spex serve`. The page lists the sessions, a state change made by
// the CLI shows without a reload, and the send action delivers a message into
// the session's pane; without its token it shows nothing but that it needs
// it. A screenshot is kept in test-artifacts/.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { type Served, serve, spexAsync } from "../integration/backend-support";
import { ARTIFACTS, type Browser, openBrowser } from "./dashboard-support";

// Callbacks below run in the page, where `document` exists (this project's tsconfig has no DOM lib).
declare const document: any;


let sb: Sandbox;
let be: Served;
let browser: Browser;
let page: Page;
const ids: Record<string, string> = {};

async function newSession(prompt: string, extra: string[] = []): Promise<string> {
  const r = await spexAsync(sb, ["session", "new", "--launcher", "shell", "--json", ...extra, prompt]);
  if (r.code !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout).session_id;
}

const badge = (id: string) => page.locator(`tr.row[data-id="${id}"] .badge`);

beforeAll(async () => {
  sb = sandbox();
  writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ sessions: { maxActive: 50 } }));
  ids.parent = await newSession("lead the [[dashboard]] work");
  ids.child = await newSession("a child task", ["--parent", ids.parent]);
  ids.other = await newSession("an unrelated session");
  be = await serve(sb);
  browser = await openBrowser();
  page = browser.page;
});

afterAll(async () => {
  await browser?.close();
  await be?.stop();
  sb?.cleanup();
});

test("the dashboard lists the sessions as a tree and drops the token from the address bar", async () => {
  await page.goto(be.dashboard);
  await page.waitForSelector("#conn.up");
  await waitFor(async () => (await page.locator("tr.row").count()) === 3, "three rows");
  expect(page.url()).not.toContain("token=");
  const childRow = page.locator(`tr.row[data-id="${ids.child}"]`);
  expect(await childRow.locator(".tree").textContent()).toContain("└");
  expect(await page.locator(`tr.row[data-id="${ids.parent}"] .c-kids`).textContent()).toBe("1");
  // Tree order: the child sits right under its parent.
  const order = await page.locator("tr.row").evaluateAll((trs) => trs.map((tr: any) => tr.dataset.id));
  expect(order.indexOf(ids.child)).toBe(order.indexOf(ids.parent!) + 1);
  expect(await page.locator(`tr.row[data-id="${ids.parent}"] .label`).textContent()).toBe("lead the dashboard work");
  expect(await page.locator(`tr.row[data-id="${ids.parent}"] .c-branch`).textContent()).toMatch(/^spex\/dashboard-/);
  // The badge is the display status the CLI shows (a shell at its prompt is idle).
  const listed = JSON.parse(sb.spex(["session", "ls", "--json"]).stdout).find((r: any) => r.id === ids.parent).display;
  await waitFor(async () => (await badge(ids.parent!).textContent()) === listed, `the badge to read ${listed}`);
});

test("without its token the page says it needs the token and shows no session", async () => {
  const bare = await page.context().newPage(); // a new tab: no token in its sessionStorage
  try {
    const failed: string[] = [];
    bare.on("response", (r) => void (r.status() === 401 && failed.push(new URL(r.url()).pathname)));
    await bare.goto(be.url + "/");
    await bare.waitForSelector("#conn:text('needs token')");
    expect(await bare.locator("#notice").textContent()).toContain("This dashboard needs its token");
    expect(await bare.locator("#notice").isVisible()).toBe(true);
    expect(await bare.locator("main").isVisible()).toBe(false);
    expect(await bare.locator("tr.row").count()).toBe(0);
    expect(await bare.content()).not.toContain("lead the");
    // A stale token (a backend restarted with --rotate-token): the backend cannot prove it holds it, so the
    // page never sends it, says why, and asks for the URL.
    const sent: string[] = [];
    bare.on("request", (r) => void (r.headers().authorization && sent.push(r.headers().authorization!)));
    await bare.goto(be.url + "/?token=" + "0".repeat(64));
    await bare.waitForSelector("#token-form:not([hidden])");
    expect(await bare.locator("#notice").textContent()).toContain("cannot prove it holds this tab's token");
    expect(sent).toEqual([]);
    expect(await bare.locator("tr.row").count()).toBe(0);
  } finally {
    await bare.close();
  }
});

test("a dropped event stream reconnects with the token and Last-Event-ID, and stays live", async () => {
  const tab = await page.context().newPage();
  try {
    const asked: Record<string, string>[] = [];
    // The first stream ends right after its hello (as a dropped connection does); later ones reach the backend.
    await tab.route("**/api/events", async (route) => {
      asked.push(route.request().headers());
      if (asked.length > 1) return route.continue();
      const hello = JSON.stringify({ instanceId: be.instanceId, root: sb.repo, resync: false });
      await route.fulfill({ status: 200, contentType: "text/event-stream", body: `id: 0\nevent: hello\ndata: ${hello}\n\n` });
    });
    await tab.goto(be.dashboard);
    await waitFor(() => asked.length >= 2, "the reconnect");
    expect(asked.map((h) => [h.authorization, h["last-event-id"]])).toEqual([[`Bearer ${be.token}`, undefined], [`Bearer ${be.token}`, "0"]]);
    await tab.waitForSelector("#conn.up");
    const r = await spexAsync(sb, ["session", "rename", ids.child!, "renamed after the reconnect"]);
    expect(r.code).toBe(0);
    await tab.waitForFunction((id) => document.querySelector(`tr.row[data-id="${id}"] .label`)?.textContent === "renamed after the reconnect", ids.child, { timeout: 5000 });
  } finally {
    await tab.close();
  }
});

test("a state change made by the CLI appears within 1 s without a reload", async () => {
  await page.evaluate(() => ((globalThis as any).__sameDocument = true));
  // What an agent's Stop hook runs: the session is now idle.
  const r = await spexAsync(sb, ["internal", "session-state", "idle", "--session", ids.other!]);
  expect(r.code).toBe(0);
  await page.waitForFunction((id) => document.querySelector(`tr.row[data-id="${id}"] .badge`)?.textContent === "idle", ids.other, { timeout: 1000 });
  expect(await page.evaluate(() => (globalThis as any).__sameDocument)).toBe(true);
});

test("the send action delivers a message into the session's pane and the timeline shows it", async () => {
  await page.locator(`tr.row[data-id="${ids.other}"]`).click();
  await page.waitForSelector("#detail:not([hidden])");
  // The prompt arrives with the detail request, after the panel opens.
  await page.waitForFunction(() => document.getElementById("d-prompt")?.textContent === "an unrelated session", undefined, { timeout: 5000 });
  await page.locator("#send-text").fill("echo sent-from-the-dash''board");
  await page.locator("#act-send").click();
  await page.waitForFunction(() => /: delivered/.test(document.getElementById("d-result")?.textContent ?? ""), undefined, { timeout: 15000 });
  // The shell ran it: the output line (quotes gone) is on the screen.
  const row = JSON.parse(sb.spex(["session", "show", ids.other!, "--json"]).stdout);
  await waitFor(() => sb.tmux(["capture-pane", "-p", "-t", row.record.tmux_session]).stdout.split("\n").includes("sent-from-the-dashboard"), "the command output in the pane");
  await page.waitForFunction(() => /sent-from-the-dash''board/.test(document.getElementById("d-timeline")?.textContent ?? ""), undefined, { timeout: 5000 });
  // The panel's screen is the pane as it is now.
  await page.waitForFunction(() => (document.getElementById("d-screen")?.textContent ?? "").split("\n").includes("sent-from-the-dashboard"), undefined, { timeout: 5000 });
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, "dashboard.png"), fullPage: true });
});

test("stop asks for confirmation, then the row goes offline", async () => {
  await page.locator(`tr.row[data-id="${ids.parent}"]`).click();
  let asked = "";
  page.once("dialog", (d) => {
    asked = d.message();
    void d.accept();
  });
  await page.locator("#act-stop").click();
  await page.waitForFunction((id) => document.querySelector(`tr.row[data-id="${id}"] .badge`)?.textContent === "offline", ids.parent, { timeout: 10000 });
  expect(asked).toContain("Stop lead the dashboard work?");
  const dismissed = page.waitForEvent("dialog").then((d) => d.dismiss());
  await page.locator(`tr.row[data-id="${ids.child}"]`).click();
  await page.locator("#act-close").click();
  await dismissed;
  expect(await page.locator(`tr.row[data-id="${ids.child}"]`).count()).toBe(1);
});
