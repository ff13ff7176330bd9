// Running a fleet from the dashboard (issue 17), in Debian's chromium through
// playwright-core against `spex serve`: start a session from the page (a
// double click makes one), see an asking session's question in its row and
// the timeline in words, open a session's changes and merge it (the branch
// lands, the row goes), type into a live terminal (one writer at a time), and
// the same page at 420 px. Screenshots go to test-artifacts/.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { commitFiles } from "../support/review";
import { type Served, serve, sessionCount, spexAsync } from "../integration/backend-support";
import { ARTIFACTS, type Browser, openBrowser } from "./dashboard-support";

declare const document: any;
declare const getComputedStyle: any;
declare const location: any;


let sb: Sandbox;
let be: Served;
let browser: Browser;
let page: Page;

async function newSession(prompt: string, extra: string[] = []): Promise<{ id: string; worktree: string; tmux: string; branch: string }> {
  const r = await spexAsync(sb, ["session", "new", "--launcher", "shell", "--json", ...extra, prompt]);
  if (r.code !== 0) throw new Error(r.stderr);
  const rec = JSON.parse(r.stdout);
  return { id: rec.session_id, worktree: rec.worktree_path, tmux: rec.tmux_session, branch: rec.branch };
}

async function cli(args: string[]): Promise<string> {
  const r = await spexAsync(sb, args);
  if (r.code !== 0) throw new Error(`spex ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

const row = (id: string) => page.locator(`tr.row[data-id="${id}"]`);
const paneLines = (name: string) => sb.tmux(["capture-pane", "-p", "-t", name]).stdout.split("\n");
const textOf = (p: Page, selector: string) => p.evaluate((s) => document.querySelector(s)?.textContent ?? "", selector);

async function screenshot(name: string, p: Page = page): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await p.screenshot({ path: join(ARTIFACTS, name), fullPage: false });
}

async function openRow(id: string): Promise<void> {
  await row(id).click();
  await page.waitForSelector("#detail:not([hidden])");
}

beforeAll(async () => {
  sb = sandbox();
  writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ sessions: { maxActive: 50 } }));
  be = await serve(sb);
  browser = await openBrowser();
  page = browser.page;
  await page.goto(be.dashboard);
  await page.waitForSelector("#conn.up");
});

afterAll(async () => {
  await browser?.close();
  await be?.stop();
  sb?.cleanup();
});

test("a session started from the page with a double click is exactly one session", async () => {
  const posts: string[] = [];
  const answers: number[] = [];
  page.on("request", (r) => void (r.method() === "POST" && new URL(r.url()).pathname === "/api/sessions" && posts.push(r.headers()["idempotency-key"] ?? "")));
  page.on("response", (r) => void (r.request().method() === "POST" && new URL(r.url()).pathname === "/api/sessions" && answers.push(r.status())));
  await page.locator("#new-toggle").click();
  await page.locator("#new-prompt").fill("echo made-from-the-page");
  await page.locator("#new-launcher").fill("shell");
  await page.locator("#new-name").fill("from the page");
  await page.locator("#new-submit").dblclick();
  await waitFor(() => answers.length === 2, "both answers to the double click");
  // Two requests went out, with one key: the backend made one session and replayed it for the second.
  expect(posts.length).toBe(2);
  expect(posts[0]).toMatch(/^dash-[0-9a-f]{32}$/);
  expect(posts[1]).toBe(posts[0]);
  expect(answers.sort()).toEqual([200, 201]);
  await page.waitForFunction(() => [...document.querySelectorAll("tr.row .label")].some((l: any) => l.textContent === "from the page"), undefined, { timeout: 10000 });
  expect(await page.locator("tr.row").count()).toBe(1);
  expect(sessionCount(sb)).toBe(1);
  // The new session opens in the panel, and the form is ready for the next one.
  await page.waitForFunction(() => document.getElementById("d-label")?.textContent === "from the page", undefined, { timeout: 5000 });
  expect(await page.locator("#new-form").isHidden()).toBe(true);
  await page.locator("#d-close-panel").click();
});

test("an asking session shows its question in its row without a click, and its timeline reads as words", async () => {
  const s = await newSession("echo asking-session-ready", ["--name", "asker"]);
  await waitFor(() => paneLines(s.tmux).includes("asking-session-ready"), "the shell to run its prompt");
  const sent = JSON.parse(await cli(["session", "send", s.id, "echo note-from-ops", "--from", "ops", "--json"]));
  await waitFor(async () => JSON.parse(await cli(["session", "message-status", sent.messageId, "--json"])).state === "delivered", "the message delivered", 15000);
  // The shell ran it and is back at its prompt (its hooks say idle) before the question is asked.
  await waitFor(() => paneLines(s.tmux).includes("note-from-ops"), "the delivered command's output");
  await waitFor(async () => JSON.parse(await cli(["session", "show", s.id, "--json"])).display === "idle", "the shell idle again", 15000);
  await cli(["session", "ask", "--session", s.id, "--note", "which db?"]);
  await page.waitForFunction((id) => document.querySelector(`tr.row[data-id="${id}"] .c-note`)?.textContent === "asks: which db?", s.id, { timeout: 5000 });
  expect(await row(s.id).locator(".badge").textContent()).toBe("asking");
  await openRow(s.id);
  await page.waitForFunction(() => {
    const lines = [...document.querySelectorAll("#d-timeline li .w")].map((w: any) => w.textContent);
    return lines.includes("asked: which db?") && lines.includes("message from ops delivered: echo note-from-ops");
  }, undefined, { timeout: 10000 });
  const words = await page.locator("#d-timeline li .w").allTextContents();
  expect(words.join("\n")).not.toMatch(/message_in|"kind"|status:/);
  await screenshot("dashboard-asking.png");
  await page.locator("#d-close-panel").click();
});

test("a session proposing merge: its changes and diff show, Merge lands the branch and its row goes", async () => {
  const s = await newSession("echo merge-me-ready", ["--name", "to be merged"]);
  // The shell has run its prompt and is at rest: a later turn would withdraw the proposal.
  await waitFor(() => paneLines(s.tmux).includes("merge-me-ready"), "the shell to run its prompt");
  await waitFor(async () => JSON.parse(await cli(["session", "show", s.id, "--json"])).display === "idle", "the shell idle", 15000);
  commitFiles(sb, s.worktree, { "feature.txt": "written by the session\n", "README.md": "# test repo\nwith a session's line\n" }, "the session's work");
  await cli(["session", "done", "--session", s.id, "--propose", "merge", "--note", "ready to land"]);
  await page.waitForFunction((id) => document.querySelector(`tr.row[data-id="${id}"] .c-note`)?.textContent === "proposes merge: ready to land", s.id, { timeout: 5000 });
  await openRow(s.id);
  await page.waitForSelector("#act-merge:not([hidden])");
  await page.locator("#tab-changes").click();
  await page.waitForSelector('#diff-files li[data-path="feature.txt"]');
  expect(await page.locator("#diff-files li").allTextContents()).toEqual(["MREADME.md+1 −0", "Afeature.txt+1 −0"]);
  const patch = await textOf(page, "#diff-patch");
  expect(patch).toContain("+written by the session");
  expect(patch).toContain("+with a session's line");
  expect(await page.locator("#diff-patch .dl-add").count()).toBe(2);
  expect(await textOf(page, "#diff-summary")).toMatch(/^2 files changed, \+2 −0 against [0-9a-f]{10} \(forked from main\)$/);
  await screenshot("dashboard-diff.png");

  await page.locator("#tab-overview").click();
  let asked = "";
  page.once("dialog", (d) => {
    asked = d.message();
    void d.accept();
  });
  await page.locator("#act-merge").click();
  await page.waitForFunction((id) => !document.querySelector(`tr.row[data-id="${id}"]`), s.id, { timeout: 15000 });
  expect(asked).toBe("Merge to be merged into the main branch (2 files, +2 −0) and close it?");
  expect(sb.git(["show", "main:feature.txt"])).toBe("written by the session\n");
  expect(sb.git(["branch", "--list", s.branch])).toBe("");
  expect(await page.locator("#detail").isHidden()).toBe(true);
});

test("typing into the live terminal reaches the pane, from one writer at a time", async () => {
  const s = await newSession("echo terminal-ready", ["--name", "typed into"]);
  await waitFor(() => paneLines(s.tmux).includes("terminal-ready"), "the shell to run its prompt");
  await openRow(s.id);
  await page.locator("#tab-terminal").click();
  await page.waitForFunction(() => (document.querySelector("#term .xterm-rows")?.textContent ?? "").includes("terminal-ready"), undefined, { timeout: 10000 });
  await page.locator("#term").click();
  await page.waitForFunction(() => document.getElementById("term-writer")?.textContent === "you type here", undefined, { timeout: 5000 });
  await page.keyboard.type("echo typed-in-the-$((6*7))-browser");
  await page.keyboard.press("Enter");
  await waitFor(() => paneLines(s.tmux).includes("typed-in-the-42-browser"), "the command's output in the pane").catch(async (e: Error) => {
    // Once seen failing in a full run and never alone: say what the page and the pane held.
    const said = await page.evaluate(() => ["term-status", "term-writer", "term-note"].map((id) => `${id}: ${document.getElementById(id)?.textContent ?? ""}`).join("; "));
    throw new Error(`${e.message}; the page: ${said}; the pane:\n${paneLines(s.tmux).join("\n")}`);
  });
  await page.waitForFunction(() => (document.querySelector("#term .xterm-rows")?.textContent ?? "").includes("typed-in-the-42-browser"), undefined, { timeout: 5000 });
  await screenshot("dashboard-terminal.png");

  // A second tab watches the same pane: it may look, but types only after taking over.
  const other = await page.context().newPage();
  try {
    await other.goto(be.dashboard);
    await other.waitForSelector("#conn.up");
    await other.locator(`tr.row[data-id="${s.id}"]`).click();
    await other.locator("#tab-terminal").click();
    await other.waitForFunction(() => (document.querySelector("#term .xterm-rows")?.textContent ?? "").includes("typed-in-the-42-browser"), undefined, { timeout: 10000 });
    await other.locator("#term").click();
    await other.waitForSelector("#term-take:not([hidden])");
    expect(await textOf(other, "#term-writer")).toBe("another viewer is typing here");
    await other.keyboard.type("echo never-sent");
    await other.keyboard.press("Enter");
    await other.locator("#term-take").click();
    await other.waitForFunction(() => document.getElementById("term-writer")?.textContent === "you type here", undefined, { timeout: 5000 });
    await other.keyboard.type("echo second-tab-took-over");
    await other.keyboard.press("Enter");
    await waitFor(() => paneLines(s.tmux).includes("second-tab-took-over"), "the second tab's command output").catch(async (e: Error) => {
      // Seen failing once in a full run (67) and never alone: say what each tab and the pane held.
      const said = (p: Page) => p.evaluate(() => ["term-status", "term-writer", "term-note"].map((id) => `${id}: ${document.getElementById(id)?.textContent ?? ""}`).join("; ") + `; focus: ${document.activeElement?.tagName ?? ""}.${document.activeElement?.className ?? ""}`);
      throw new Error(`${e.message}; the second tab: ${await said(other)}; the first: ${await said(page)}; the pane:\n${paneLines(s.tmux).join("\n")}`);
    });
    expect(paneLines(s.tmux).join("\n")).not.toContain("never-sent");
    await page.waitForFunction(() => document.getElementById("term-writer")?.textContent === "another viewer is typing here", undefined, { timeout: 5000 });
  } finally {
    await other.close();
  }
  await page.locator("#tab-overview").click();
  await page.locator("#d-close-panel").click();
});

test("groups, tasks and reservations show beside the sessions; a session started in a group is filed there", async () => {
  await cli(["group", "new", "fleet"]);
  await cli(["group", "new", "fleet/api"]);
  const holder = await newSession("echo holder-ready", ["--name", "lease holder"]);
  await cli(["task", "new", "write the release notes"]);
  await cli(["reserve", "src/auth", "--session", holder.id, "--note", "auth work"]);
  await page.waitForFunction(() => {
    const t = (id: string) => document.getElementById(id)?.textContent ?? "";
    return t("coord-groups").includes("fleet/api") && t("coord-tasks").includes("write the release notes") && t("coord-leases").includes("src/auth");
  }, undefined, { timeout: 15000 });
  expect(await textOf(page, "#coord-leases")).toContain("lease holder");
  expect(await textOf(page, "#coord-tasks-count")).toBe("1");

  const before = sessionCount(sb);
  await page.locator("#new-toggle").click();
  await page.locator("#new-prompt").fill("echo filed-in-a-group");
  await page.locator("#new-launcher").fill("shell");
  await page.locator("#new-group").fill("no/such/group");
  await page.locator("#new-submit").click();
  await page.waitForFunction(() => (document.getElementById("new-status")?.textContent ?? "").includes('there is no group "no/such/group"'), undefined, { timeout: 5000 });
  expect(sessionCount(sb)).toBe(before);
  await page.locator("#new-group").fill("fleet/api");
  await page.locator("#new-submit").click();
  await page.waitForFunction(() => document.getElementById("d-label")?.textContent === "echo filed-in-a-group", undefined, { timeout: 10000 });
  const made = JSON.parse(sb.spex(["session", "ls", "--json"]).stdout).find((r: any) => r.label === "echo filed-in-a-group");
  expect(made.group).toBe("fleet/api");
  await page.waitForFunction(() => (document.getElementById("d-facts")?.textContent ?? "").includes("groupfleet/api"), undefined, { timeout: 5000 });
  await screenshot("dashboard-coord.png");
  await page.locator("#d-close-panel").click();
});

/**
 * Whether `sel` shows within a 420 px page, once it shows at all: a reload
 * draws in steps, and an element measured in between has no box yet (a full
 * run once read null here). One hidden for good fails naming it.
 */
async function insideNarrow(sel: string): Promise<{ sel: string; inside: boolean | string }> {
  const shown = await page.locator(sel).waitFor({ state: "visible", timeout: 5000 }).then(
    () => true,
    () => false,
  );
  const box = shown ? await page.locator(sel).boundingBox() : null;
  if (box) return { sel, inside: box.x >= 0 && box.x + box.width <= 420 };
  const why = await page.evaluate((q) => {
    const n = document.querySelector(q);
    return n ? `display ${getComputedStyle(n).display}, url ${location.href}` : "no such element";
  }, sel);
  return { sel, inside: `not shown (${why})` };
}

test("at 420 px wide nothing scrolls sideways, and the list, the form and the panel stay usable", async () => {
  const s = await newSession("echo narrow-ready", ["--name", "a session with a rather long name for a narrow screen"]);
  commitFiles(sb, s.worktree, { "wide.txt": `${"a very long line that would widen the page ".repeat(8)}\n` }, "wide");
  await page.setViewportSize({ width: 420, height: 860 });
  try {
    await page.reload();
    await page.waitForSelector("#conn.up");
    await page.waitForSelector(`tr.row[data-id="${s.id}"]`);
    const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await sideways()).toBe(0);
    for (const sel of ["#new-toggle", `tr.row[data-id="${s.id}"] .label`, `tr.row[data-id="${s.id}"] .badge`, "#filter"]) expect(await insideNarrow(sel)).toEqual({ sel, inside: true });
    expect(await page.locator(`tr.row[data-id="${s.id}"] .c-branch`).isVisible()).toBe(false);
    await page.locator("#new-toggle").click();
    expect(await sideways()).toBe(0);
    await screenshot("dashboard-420-new.png");
    await page.locator("#new-cancel").click();
    await screenshot("dashboard-420.png");

    await openRow(s.id);
    const panel = (await page.locator("#detail").boundingBox())!;
    expect(panel.x).toBe(0);
    expect(panel.width).toBeLessThanOrEqual(420);
    await page.locator("#tab-changes").click();
    await page.waitForSelector('#diff-files li[data-path="wide.txt"]');
    expect(await sideways()).toBe(0);
    for (const sel of ["#tab-terminal", "#diff-merge", "#d-close-panel"]) expect(await insideNarrow(sel)).toEqual({ sel, inside: true });
    await screenshot("dashboard-420-diff.png");
    await page.locator("#tab-terminal").click();
    await page.waitForFunction(() => (document.querySelector("#term .xterm-rows")?.textContent ?? "").includes("narrow-ready"), undefined, { timeout: 10000 });
    expect(await sideways()).toBe(0);
    await screenshot("dashboard-420-terminal.png");
    await page.locator("#tab-overview").click();
    await page.locator("#d-close-panel").click();
  } finally {
    await page.setViewportSize({ width: 1400, height: 800 });
  }
});
