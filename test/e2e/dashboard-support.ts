// A headless Debian chromium for the dashboard tests, with a fresh profile,
// no sandbox (containers), and no background traffic; and the steps most
// dashboard tests share (a served sandbox, shell sessions, screenshots).
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { type BrowserContext, type Page, chromium } from "playwright-core";
import { type Sandbox, sandbox } from "../support/sandbox";
import { type Served, serve, spexAsync } from "../integration/backend-support";

export const CHROMIUM = process.env.SPEX_TEST_CHROMIUM || "/usr/bin/chromium";

/** Where the dashboard tests keep their screenshots (gitignored). */
export const ARTIFACTS = join(resolve(__dirname, "..", ".."), "test-artifacts");

/** The flags every test browser runs with (this machine: no GPU, no sandbox, no traffic of its own). */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface Browser {
  page: Page;
  context: BrowserContext;
  close(): Promise<void>;
}

export async function openBrowser(opts: { width?: number; height?: number } = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const profile = mkdtempSync(join(tmpdir(), "spex-chromium-"));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: opts.width ?? 1400, height: opts.height ?? 800 },
    });
  } catch (e) {
    rmSync(profile, { recursive: true, force: true });
    throw e;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    page,
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The page as it looks now at 1280 and at 420 px wide (`<name>-1280.png`, `<name>-420.png`), then back to its size. */
export async function shots(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const before = page.viewportSize() ?? { width: 1400, height: 800 };
  const written: string[] = [];
  try {
    for (const width of [1280, 420]) {
      await page.setViewportSize({ width, height: 860 });
      // Two frames: the page lays out (and the terminal refits) for the new width.
      await page.evaluate(() => new Promise((r) => (globalThis as any).requestAnimationFrame(() => (globalThis as any).requestAnimationFrame(r))));
      const path = join(ARTIFACTS, `${name}-${width}.png`);
      await page.screenshot({ path });
      written.push(relative(process.cwd(), path));
    }
    // In the test's output, so a reader of a CI log knows where to look.
    console.log(`screenshots: ${written.join(" ")}`);
  } finally {
    await page.setViewportSize(before);
  }
}

export interface Fleet {
  sb: Sandbox;
  /** The backend serving now (a test that restarts it puts the new one here). */
  be: Served;
  browser: Browser;
  page: Page;
  /** A session running the shell launcher (its prompt runs as a command), by the CLI. */
  session(prompt: string, extra?: string[]): Promise<{ id: string; worktree: string; tmux: string; branch: string }>;
  /** Run the CLI; a failure throws with its stderr. */
  cli(args: string[]): Promise<string>;
  close(): Promise<void>;
}

/** A sandbox with its backend served and a browser on the dashboard (not yet opened: call page.goto(be.dashboard)). */
export async function fleet(opts: { maxActive?: number; serveArgs?: string[] } = {}): Promise<Fleet> {
  const sb = sandbox();
  writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ sessions: { maxActive: opts.maxActive ?? 50 } }));
  const be = await serve(sb, { args: opts.serveArgs });
  const browser = await openBrowser();
  const cli = async (args: string[]) => {
    const r = await spexAsync(sb, args);
    if (r.code !== 0) throw new Error(`spex ${args.join(" ")}: ${r.stderr}`);
    return r.stdout;
  };
  const made: Fleet = {
    sb,
    be,
    browser,
    page: browser.page,
    cli,
    async session(prompt, extra = []) {
      const rec = JSON.parse(await cli(["session", "new", "--launcher", "shell", "--json", ...extra, prompt]));
      // The prompt runs as the shell's first command and a hook process of its own reports that turn: a state a
      // test sets before the report lands is undone by it. At rest first (a queued session has no turn yet).
      if (rec.status !== "queued") await cli(["session", "wait", rec.session_id, "--idle", "--timeout", "60"]);
      return { id: rec.session_id, worktree: rec.worktree_path, tmux: rec.tmux_session, branch: rec.branch };
    },
    async close() {
      await browser.close();
      await made.be.stop();
      sb.cleanup();
    },
  };
  return made;
}

/** The text of the first element matching a selector in the page ("" when none). */
export function textOf(page: Page, selector: string): Promise<string> {
  return page.evaluate((s) => (globalThis as any).document.querySelector(s)?.textContent ?? "", selector);
}
