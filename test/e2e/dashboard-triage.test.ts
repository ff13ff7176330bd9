// Triage first (issue 24 item 5): sessions that need you (asking, error,
// review) come first (a switch), their count is in the tab's title, a
// browser notification (opt-in) tells of each one that starts needing you;
// status pills filter, column headers sort, a queued row shows its place,
// and a selection of rows is stopped, resumed or archived at once.
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { waitFor } from "../support/sandbox";
import { type Fleet, fleet, shots, textOf } from "./dashboard-support";

declare const document: any;

let f: Fleet;
let page: Page;
const ids: Record<string, string> = {};

const order = () => page.locator("tr.row").evaluateAll((trs) => trs.map((tr: any) => tr.querySelector(".label").textContent));
const badgeIs = (id: string, display: string, timeout = 10000) =>
  page.waitForFunction(([i, d]) => document.querySelector(`tr.row[data-id="${i}"] .badge`)?.textContent === d, [id, display], { timeout });

beforeAll(async () => {
  f = await fleet({ maxActive: 4 });
  page = f.page;
  // Every notification the page raises, as the page raised it.
  await f.browser.context.grantPermissions(["notifications"], { origin: f.be.url });
  await page.addInitScript(() => {
    const g = globalThis as any;
    g.__notified = [];
    const Real = g.Notification;
    g.Notification = class extends Real {
      constructor(title: string, opts: any) {
        super(title, opts);
        g.__notified.push({ title, body: opts?.body ?? "" });
      }
    };
    g.Notification.requestPermission = () => Promise.resolve("granted");
    Object.defineProperty(g.Notification, "permission", { get: () => "granted" });
  });
  for (const name of ["alpha", "bravo", "charlie"]) {
    ids[name] = (await f.session(`echo ${name}-ready`, ["--name", name])).id;
    await f.cli(["internal", "session-state", "idle", "--session", ids[name]!]);
  }
  await page.goto(f.be.dashboard);
  await page.waitForSelector("#conn.up");
  await page.waitForFunction(() => document.querySelectorAll("tr.row").length === 3, undefined, { timeout: 10000 });
  for (const name of ["alpha", "bravo", "charlie"]) await badgeIs(ids[name]!, "idle");
});

afterAll(async () => {
  await f?.close();
});

beforeEach(async () => {
  if (await page.locator("#detail").isVisible()) await page.locator("#d-close-panel").click();
});

test("sessions that need you come first, with their count in the title; the switch turns it off", async () => {
  expect(await order()).toEqual(["alpha", "bravo", "charlie"]);
  await f.cli(["session", "ask", "--session", ids.charlie!, "--note", "which db?"]);
  await f.cli(["internal", "session-state", "error", "--session", ids.bravo!, "--note", "the build broke"]);
  await badgeIs(ids.charlie!, "asking");
  await badgeIs(ids.bravo!, "error");
  await waitFor(async () => JSON.stringify(await order()) === JSON.stringify(["charlie", "bravo", "alpha"]), "asking, then error, then the rest");
  expect(await page.title()).toMatch(/^\(2\) /);
  expect(await textOf(page, "#summary")).toContain("2 need you");
  await shots(page, "dashboard-triage");
  await page.locator("#triage").uncheck();
  await waitFor(async () => JSON.stringify(await order()) === JSON.stringify(["alpha", "bravo", "charlie"]), "creation order again");
  await page.locator("#triage").check();
  await waitFor(async () => (await order())[0] === "charlie", "triage order again");
});

test("status pills filter the list; a header sorts it, twice the other way, three times back", async () => {
  await page.locator('#summary button[data-status="asking"]').click();
  await waitFor(async () => JSON.stringify(await order()) === JSON.stringify(["charlie"]), "only the asking one");
  await page.locator('#summary button[data-status="needs-you"]').click();
  await waitFor(async () => JSON.stringify(await order()) === JSON.stringify(["charlie", "bravo"]), "the two that need you");
  await page.locator('#summary button[data-status=""]').click();
  await waitFor(async () => (await order()).length === 3, "all again");

  await page.locator("#triage").uncheck();
  const head = page.locator("th.c-label button");
  await head.click();
  await waitFor(async () => JSON.stringify(await order()) === JSON.stringify(["alpha", "bravo", "charlie"]), "by name");
  expect(await page.locator("th.c-label").getAttribute("aria-sort")).toBe("ascending");
  await head.click();
  await waitFor(async () => JSON.stringify(await order()) === JSON.stringify(["charlie", "bravo", "alpha"]), "by name, the other way");
  expect(await page.locator("th.c-label").getAttribute("aria-sort")).toBe("descending");
  await page.locator("th.c-status button").click();
  await waitFor(async () => JSON.stringify(await order()) === JSON.stringify(["charlie", "bravo", "alpha"]), "by status (asking, error, idle)");
  await page.locator("th.c-status button").click();
  await page.locator("th.c-status button").click();
  expect(await page.locator("th.c-status").getAttribute("aria-sort")).toBeNull();
  await waitFor(async () => JSON.stringify(await order()) === JSON.stringify(["alpha", "bravo", "charlie"]), "creation order");
  await page.locator("#triage").check();
});

test("with notifications on, a session that starts needing you raises one; none for what needed you already", async () => {
  await page.locator("#notify").click();
  await page.waitForFunction(() => document.getElementById("notify").getAttribute("aria-pressed") === "true", undefined, { timeout: 5000 });
  await f.cli(["session", "ask", "--session", ids.alpha!, "--note", "deploy now?"]);
  await badgeIs(ids.alpha!, "asking");
  await waitFor(async () => (await page.evaluate(() => (globalThis as any).__notified)).length > 0, "a notification");
  expect(await page.evaluate(() => (globalThis as any).__notified)).toEqual([{ title: "alpha is asking", body: "deploy now?" }]);
  expect(await page.title()).toMatch(/^\(3\) /);
});

test("a queued session's row shows its place in the queue", async () => {
  ids.delta = (await f.session("echo delta-ready", ["--name", "delta"])).id;
  ids.echo = (await f.session("echo echo-ready", ["--name", "echo"])).id;
  await badgeIs(ids.echo!, "queued");
  expect(await textOf(page, `tr.row[data-id="${ids.echo}"] .c-status`)).toContain("#1 in queue");
  // Their slots go back for the next test's resume.
  for (const name of ["echo", "delta"]) await f.cli(["session", "close", "--force", ids[name]!]);
});

test("a selection of rows is stopped, resumed and archived at once", async () => {
  await page.locator(`tr.row[data-id="${ids.bravo}"] .c-pick input`).check();
  await page.locator(`tr.row[data-id="${ids.alpha}"]`).focus();
  await page.keyboard.press("x");
  await page.waitForSelector("#bulk:not([hidden])");
  expect(await textOf(page, "#bulk-count")).toBe("2 selected");
  page.once("dialog", (d) => void d.accept());
  await page.locator("#bulk-stop").click();
  await badgeIs(ids.alpha!, "offline", 20000);
  await badgeIs(ids.bravo!, "offline", 20000);
  await page.waitForFunction(() => /stop: 2 done/.test(document.getElementById("bulk-result")?.textContent ?? ""), undefined, { timeout: 20000 });
  await shots(page, "dashboard-bulk");
  await page.locator("#bulk-resume").click();
  await page.waitForFunction(([a, b]) => [a, b].every((i) => document.querySelector(`tr.row[data-id="${i}"] .c-live`)?.textContent === "online"), [ids.alpha, ids.bravo], { timeout: 30000 });
  page.once("dialog", (d) => void d.accept());
  await page.locator("#bulk-archive").click();
  await page.waitForFunction(([a, b]) => [a, b].every((i) => !document.querySelector(`tr.row[data-id="${i}"]`)), [ids.alpha, ids.bravo], { timeout: 30000 });
  const listed = JSON.parse(await f.cli(["session", "ls", "--all", "--json"]));
  expect(listed.filter((r: any) => r.archived).map((r: any) => r.id).sort()).toEqual([ids.alpha, ids.bravo].sort());
  expect(await page.locator("#bulk").isHidden()).toBe(true);
});
