// A headless Debian chromium for the dashboard tests, with a fresh profile,
// no sandbox (containers), and no background traffic.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type BrowserContext, type Page, chromium } from "playwright-core";

export const CHROMIUM = process.env.SPEX_TEST_CHROMIUM || "/usr/bin/chromium";

/** Where the dashboard tests keep their screenshots (gitignored). */
export const ARTIFACTS = join(resolve(__dirname, "..", ".."), "test-artifacts");

export interface Browser {
  page: Page;
  close(): Promise<void>;
}

export async function openBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const profile = mkdtempSync(join(tmpdir(), "spex-chromium-"));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
      viewport: { width: 1400, height: 800 },
    });
  } catch (e) {
    rmSync(profile, { recursive: true, force: true });
    throw e;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
