// Rows tell the truth (issue 24 item 1): a row is drawn from the last row the
// page received, whole, whatever happened to it while it was hidden or moved:
// a row that shows up under a filter, an archived row shown again, a record
// that turns corrupt and comes back.
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { type Fleet, fleet, shots, textOf } from "./dashboard-support";

declare const document: any;

let f: Fleet;
let page: Page;

const cell = (id: string, cls: string) => textOf(page, `tr.row[data-id="${id}"] .${cls}`);

beforeAll(async () => {
  f = await fleet();
  page = f.page;
  await page.goto(f.be.dashboard);
  await page.waitForSelector("#conn.up");
});

afterAll(async () => {
  await f?.close();
});

// Each test starts from the plain list, whatever the one before left behind.
beforeEach(async () => {
  await page.locator("#filter").fill("");
  await page.locator("#show-archived").uncheck();
  if (await page.locator("#detail").isVisible()) await page.locator("#d-close-panel").click();
});

function recordFile(id: string): string {
  const [key] = require("node:fs").readdirSync(join(f.sb.home, "projects"));
  return join(f.sb.home, "projects", key, "sessions", id, "session.json");
}

test("a row that a filter brings into view shows its new status, as the summary does", async () => {
  const s = await f.session("echo filter-me", ["--name", "filtered one"]);
  await f.cli(["internal", "session-state", "idle", "--session", s.id]);
  await page.waitForFunction((id) => document.querySelector(`tr.row[data-id="${id}"] .badge`)?.textContent === "idle", s.id, { timeout: 5000 });
  await page.locator("#filter").fill("working");
  await page.waitForFunction((id) => !document.querySelector(`tr.row[data-id="${id}"]`)?.isConnected, s.id, { timeout: 5000 });
  // The session starts working while the filter hides it: the row comes back, saying so.
  await f.cli(["internal", "session-state", "active", "--session", s.id]);
  await page.waitForSelector(`tr.row[data-id="${s.id}"]`, { timeout: 5000 });
  await page.waitForFunction(() => /1 working/.test(document.getElementById("summary")?.textContent ?? ""), undefined, { timeout: 5000 });
  expect(await cell(s.id, "badge")).toBe("working");
  await shots(page, "dashboard-rows-filter");
});

test("a row archived from its panel and shown again says what the CLI says, not what it said before", async () => {
  const s = await f.session("echo archive-me", ["--name", "archived one"]);
  await f.cli(["internal", "session-state", "idle", "--session", s.id]);
  await page.waitForFunction((id) => document.querySelector(`tr.row[data-id="${id}"] .c-live`)?.textContent === "online", s.id, { timeout: 10000 });
  await page.locator(`tr.row[data-id="${s.id}"]`).click();
  page.once("dialog", (d) => void d.accept());
  await page.locator("#act-archive").click();
  await page.waitForFunction((id) => !document.querySelector(`tr.row[data-id="${id}"]`)?.isConnected, s.id, { timeout: 10000 });
  await page.locator("#show-archived").check();
  await page.waitForSelector(`tr.row[data-id="${s.id}"]`, { timeout: 5000 });
  const listed = JSON.parse(await f.cli(["session", "ls", "--all", "--json"])).find((r: any) => r.id === s.id);
  expect([listed.archived, listed.liveness]).toEqual([true, "offline"]);
  // The live cell says what ls's LIVE column says: the liveness, and why an agent is gone when known (archive stopped it).
  const live = listed.offlineReason ? `${listed.liveness} · ${listed.offlineReason}` : listed.liveness;
  await page.waitForFunction(([id, want]) => document.querySelector(`tr.row[data-id="${id}"] .c-live`)?.textContent === want, [s.id, live], { timeout: 5000 });
  expect(await cell(s.id, "badge")).toBe(listed.display);
  expect(await cell(s.id, "c-status")).toContain("archived");
  await shots(page, "dashboard-rows-archived");
});

test("a record that turns corrupt shows corrupt in the list and in the panel, and its restore shows it whole again", async () => {
  const s = await f.session("echo corrupt-me", ["--name", "corrupted one"]);
  await f.cli(["session", "stop", s.id]);
  await page.waitForFunction((id) => document.querySelector(`tr.row[data-id="${id}"] .badge`)?.textContent === "offline", s.id, { timeout: 10000 });
  await page.locator(`tr.row[data-id="${s.id}"]`).click();
  await page.waitForSelector("#detail:not([hidden])");
  const file = recordFile(s.id);
  const good = readFileSync(file);
  writeFileSync(file, good.subarray(0, 40));
  await page.waitForFunction(() => (document.getElementById("d-facts")?.textContent ?? "").includes("corrupt"), undefined, { timeout: 5000 });
  await page.waitForFunction((id) => document.querySelector(`tr.row[data-id="${id}"] .badge`)?.textContent === "corrupt", s.id, { timeout: 5000 });
  expect(await cell(s.id, "label")).toBe("(corrupt record)");
  const listed = JSON.parse(await f.cli(["session", "ls", "--all", "--json"])).find((r: any) => r.id === s.id);
  expect(await cell(s.id, "c-note")).toBe(listed.error);
  await shots(page, "dashboard-rows-corrupt");
  writeFileSync(file, good);
  await page.waitForFunction((id) => document.querySelector(`tr.row[data-id="${id}"] .label`)?.textContent === "corrupted one", s.id, { timeout: 5000 });
  expect(await cell(s.id, "badge")).toBe("offline");
  expect(await textOf(page, "#d-label")).toBe("corrupted one");
});

test("a change made while the page loads, after its list was read and before its event stream joined, still shows", async () => {
  const s = await f.session("echo between-me", ["--name", "between one"]);
  await f.cli(["internal", "session-state", "idle", "--session", s.id]);
  await page.waitForFunction((id) => document.querySelector(`tr.row[data-id="${id}"] .badge`)?.textContent === "idle", s.id, { timeout: 10000 });
  // A second tab whose event stream is held back until the change went out: its list is older than the stream's first frame.
  const late = await f.browser.context.newPage();
  try {
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await late.route("**/api/events", async (route) => {
      await held;
      await route.continue();
    });
    await late.goto(f.be.dashboard);
    await late.waitForFunction((id) => document.querySelector(`tr.row[data-id="${id}"] .badge`)?.textContent === "idle", s.id, { timeout: 10000 });
    await f.cli(["internal", "session-state", "active", "--session", s.id]);
    // The backend sent the change (the first tab shows it) while the second tab's stream was not there to hear it.
    await page.waitForFunction((id) => document.querySelector(`tr.row[data-id="${id}"] .badge`)?.textContent === "working", s.id, { timeout: 10000 });
    release();
    await late.waitForSelector("#conn.up", { timeout: 10000 });
    await late.waitForFunction((id) => document.querySelector(`tr.row[data-id="${id}"] .badge`)?.textContent === "working", s.id, { timeout: 10000 });
  } finally {
    await late.close();
  }
});

test("a name, note or branch holding a direction control shows the control, not text read the other way", async () => {
  // "report‮gnp.exe" would read as "reportexe.png": the override shows as a mark wherever the page names the session.
  const s = await f.session("echo bidi", ["--name", "report\u202egnp.exe"]);
  await f.cli(["internal", "session-state", "idle", "--session", s.id, "--note", "see \u202etxt.evil"]);
  await page.waitForFunction((id) => /txt\.evil/.test(document.querySelector(`tr.row[data-id="${id}"] .c-note`)?.textContent ?? ""), s.id, { timeout: 5000 });
  expect(await cell(s.id, "label")).toBe("report⟨U+202E⟩gnp.exe");
  expect(await cell(s.id, "c-note")).toBe("see ⟨U+202E⟩txt.evil");
  await page.locator(`tr.row[data-id="${s.id}"]`).click();
  await page.waitForFunction(() => /gnp/.test(document.getElementById("d-label")?.textContent ?? ""), undefined, { timeout: 5000 });
  expect(await textOf(page, "#d-label")).toBe("report⟨U+202E⟩gnp.exe");
  // Nowhere in the list or the panel is one obeyed.
  const obeyed = await page.evaluate(() =>
    [...document.querySelectorAll("#rows *, #detail *")].filter((n: any) => n.children.length === 0 && /[\u202a-\u202e\u2066-\u2069]/.test(n.textContent)).map((n: any) => `${n.id || n.className}: ${n.textContent}`),
  );
  expect(obeyed).toEqual([]);
});
