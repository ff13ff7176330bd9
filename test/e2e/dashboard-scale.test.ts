// The dashboard with 500 sessions: every row shows, and a change to one
// session patches that row in place instead of rebuilding the table.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { seedRecord } from "../support/records";
import { type Served, serve, spexAsync } from "../integration/backend-support";
import { type Browser, openBrowser } from "./dashboard-support";

declare const document: any;

const COUNT = 500;
let sb: Sandbox;
let be: Served;
let browser: Browser;
const ids: string[] = [];

beforeAll(async () => {
  sb = sandbox();
  for (let i = 0; i < COUNT; i++) {
    // Every tenth session has the previous one as its parent, so the tree has depth.
    const parent = i % 10 === 9 ? ids[i - 1]! : "";
    ids.push(seedRecord(sb.home, sb.repo, { prompt: `scaled session number ${i}`, status: "idle", stopped: true, parent }).session_id);
  }
  be = await serve(sb);
  browser = await openBrowser();
});

afterAll(async () => {
  await browser?.close();
  await be?.stop();
  sb?.cleanup();
});

test("500 sessions all render, and a CLI rename patches only its own row", async () => {
  const { page } = browser;
  const started = Date.now();
  const listed = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/sessions");
  await page.goto(be.dashboard);
  // The list of 500 goes gzipped (its JSON is ~400 KB).
  expect((await listed).headers()["content-encoding"]).toBe("gzip");
  await waitFor(async () => (await page.locator("tr.row").count()) === COUNT, `${COUNT} rows`, 20000);
  console.log(`dashboard: ${COUNT} rows on screen ${Date.now() - started} ms after navigation (informational)`);
  await page.evaluate(() => document.querySelectorAll("tr.row").forEach((tr: any) => (tr.__kept = true)));

  const target = ids[250]!;
  const r = await spexAsync(sb, ["session", "rename", target, "renamed at scale"]);
  expect(r.code).toBe(0);
  await page.waitForFunction((id) => document.querySelector(`tr.row[data-id="${id}"] .label`)?.textContent === "renamed at scale", target, { timeout: 5000 });
  const kept = await page.evaluate(() => [...document.querySelectorAll("tr.row")].filter((tr: any) => tr.__kept).length);
  expect(kept).toBe(COUNT);
  expect(await page.locator("tr.row .tree:text('└')").count()).toBe(COUNT / 10);
});
