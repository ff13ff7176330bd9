// Light and cacheable (issue 24 item 7): the page's script and stylesheet
// come compressed under a name that changes with their content, cached for
// good; the page itself is never cached (it carries a fresh nonce); a
// favicon; the first load stays within 150 KB on the wire, and a reload
// fetches the script from the cache.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Response } from "playwright-core";
import { http } from "../integration/backend-support";
import { type Fleet, fleet, shots } from "./dashboard-support";

declare const document: any;
declare const performance: any;

let f: Fleet;

beforeAll(async () => {
  f = await fleet();
  await f.session("echo assets-ready", ["--name", "one session"]);
});

afterAll(async () => {
  await f?.close();
});

test("the script and stylesheet come compressed and cacheable by content hash, the page uncached, with a favicon, in ≤ 150 KB", async () => {
  const { page } = f;
  const answers: Response[] = [];
  page.on("response", (r) => void answers.push(r));
  await page.goto(f.be.dashboard);
  await page.waitForSelector("tr.row");
  const local = answers.filter((r) => r.url().startsWith(f.be.url));
  const byPath = (test: (p: string) => boolean) => local.find((r) => test(new URL(r.url()).pathname));

  const doc = byPath((p) => p === "/")!;
  expect(doc.headers()["cache-control"]).toBe("no-store");

  const script = byPath((p) => /^\/app\.[0-9a-f]{12,}\.js$/.test(p));
  const style = byPath((p) => /^\/app\.[0-9a-f]{12,}\.css$/.test(p));
  expect(script?.url()).toBeDefined();
  expect(style?.url()).toBeDefined();
  for (const r of [script!, style!]) {
    const h = r.headers();
    expect(["br", "gzip"]).toContain(h["content-encoding"] ?? "none");
    expect(h["cache-control"]).toContain("immutable");
    expect(h["cache-control"]).toContain("max-age=31536000");
    expect(h.vary).toBe("Accept-Encoding");
  }

  const icon = await page.evaluate(() => document.querySelector('link[rel="icon"]')?.getAttribute("href"));
  expect(icon).toMatch(/^\/favicon\.[0-9a-f]{12,}\.svg$/);
  const favicon = await http(f.be.url, icon!);
  expect([favicon.status, favicon.headers["content-type"]]).toEqual([200, "image/svg+xml"]);

  // What the first load cost on the wire: every answer from the backend, headers included
  // (the event stream goes on for as long as the page is open: not a load).
  let bytes = 0;
  for (const r of local.filter((a) => !a.headers()["content-type"]?.startsWith("text/event-stream"))) {
    const s = await r.request().sizes();
    bytes += s.responseBodySize + s.responseHeadersSize;
  }
  console.log(`dashboard: first load ${(bytes / 1024).toFixed(1)} KB transferred in ${local.length} answers`);
  expect(bytes).toBeLessThanOrEqual(150 * 1024);

  // A client that takes no compression gets the same script, plain.
  const plain = await http(f.be.url, new URL(script!.url()).pathname);
  expect(plain.headers["content-encoding"]).toBeUndefined();
  expect(plain.text.length).toBeGreaterThan((await script!.request().sizes()).responseBodySize * 2);

  // A reload takes the script from the cache: nothing crosses the wire for it.
  await page.reload();
  await page.waitForSelector("tr.row");
  const cached = await page.evaluate(() => performance.getEntriesByType("resource").filter((e: any) => /\/app\.[0-9a-f]+\.js$/.test(e.name)).map((e: any) => e.transferSize));
  expect(cached).toEqual([0]);
  await shots(page, "dashboard-assets");
});

test("the terminal's code comes only when a terminal opens, compressed and cacheable like the script", async () => {
  const { page } = f;
  const chunks: Response[] = [];
  const isChunk = (r: Response) => r.url().startsWith(f.be.url) && /^\/chunk\.[0-9a-f]{12,}\.\d+\.js$/.test(new URL(r.url()).pathname);
  page.on("response", (r) => void (isChunk(r) && chunks.push(r)));
  await page.goto("about:blank");
  await page.goto(f.be.dashboard);
  await page.waitForSelector("#conn.up");
  await page.waitForSelector("tr.row");
  const loaded = () => page.evaluate(() => performance.getEntriesByType("resource").filter((e: any) => /\/chunk\.[0-9a-f]+\.\d+\.js$/.test(e.name)).length);
  expect(await loaded()).toBe(0);
  await page.locator("tr.row").first().click();
  await page.locator("#tab-terminal").click();
  await page.waitForSelector("#term .xterm", { timeout: 15000 });
  expect(await loaded()).toBe(1);
  // Loaded from the cache when an earlier page had it, else over the wire: either way cacheable for good.
  expect(chunks.length).toBeGreaterThan(0);
  for (const r of chunks) {
    expect(r.headers()["cache-control"]).toContain("immutable");
    expect(["br", "gzip"]).toContain(r.headers()["content-encoding"] ?? "none");
  }
});
