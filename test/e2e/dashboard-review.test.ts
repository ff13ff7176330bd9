// Review where you look (issue 24 item 6): a comment on a diff line goes to
// the agent quoting file:line and the line; the overview's merge waits for
// the diff and says what it merges; merge settings are each session's own;
// what "merge and close" did stays on screen after the panel goes; close
// with work to lose says what it throws away before forcing; a corrupt row
// is quarantined and restored from its panel; a queued session's terminal
// says queued.
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { waitFor } from "../support/sandbox";
import { commitFiles } from "../support/review";
import { http } from "../integration/backend-support";
import { type Fleet, fleet, shots, textOf } from "./dashboard-support";

declare const document: any;

let f: Fleet;
let page: Page;

const paneLines = (name: string) => f.sb.tmux(["capture-pane", "-p", "-J", "-t", name]).stdout.split("\n");
const openRow = async (id: string) => {
  await page.locator(`tr.row[data-id="${id}"]`).click();
  await page.waitForSelector("#detail:not([hidden])");
};
const timeline = async (id: string) => (await http(f.be.url, `/api/sessions/${id}/timeline`, { token: f.be.token })).json.events as any[];

/** A shell session at rest with a commit of its own. */
async function withWork(name: string, files: Record<string, string>) {
  const s = await f.session(`echo ${name}-ready`, ["--name", name]);
  await waitFor(() => paneLines(s.tmux).includes(`${name}-ready`), "the shell to run its prompt");
  await waitFor(async () => JSON.parse(await f.cli(["session", "show", s.id, "--json"])).display === "idle", "the shell idle", 15000);
  commitFiles(f.sb, s.worktree, files, `${name}'s work`);
  return s;
}

beforeAll(async () => {
  f = await fleet({ maxActive: 4 });
  page = f.page;
  await page.goto(f.be.dashboard);
  await page.waitForSelector("#conn.up");
});

afterAll(async () => {
  await f?.close();
});

beforeEach(async () => {
  if (await page.locator("#detail").isVisible()) await page.locator("#d-close-panel").click();
});

test("a comment on a diff line goes to the agent as a message quoting file:line and the line", async () => {
  const s = await withWork("commented", { "notes.txt": "first line\nsecond line\nthird line\n" });
  await openRow(s.id);
  await page.locator("#tab-changes").click();
  const line = page.locator('#diff-patch span[data-path="notes.txt"][data-line="2"]');
  await line.waitFor();
  expect(await line.textContent()).toBe("+second line\n");
  await line.click();
  await page.locator("#diff-patch .comment-box textarea").fill("why a second line?");
  await page.keyboard.press("Control+Enter");
  await page.waitForFunction(() => /message .*: (delivered|queued)/.test(document.getElementById("d-result")?.textContent ?? ""), undefined, { timeout: 15000 });
  const sent = (await timeline(s.id)).filter((e) => e.kind === "message_in").map((e) => e.text);
  expect(sent.at(-1)).toBe("notes.txt:2\n> second line\nwhy a second line?");
  expect(await page.locator("#diff-patch .comment-box").count()).toBe(0);
  await shots(page, "dashboard-review-comment");
});

test("a direction control in a patch shows as a marked code point, not as text read the other way", async () => {
  // Trojan Source: the line holds "evil", a right-to-left override makes it read "live".
  const s = await withWork("bidi", { "check.txt": "safe line\nstatus = \u202eevil\u202c done\n", "name\u202etxt.exe": "x\n" });
  await openRow(s.id);
  await page.locator("#tab-changes").click();
  const line = page.locator('#diff-patch span[data-path="check.txt"][data-line="2"]');
  await line.waitFor();
  expect(await line.textContent()).toBe("+status = ⟨U+202E⟩evil⟨U+202C⟩ done\n");
  expect(await line.locator(".control").count()).toBe(2);
  const files = await page.locator("#diff-files .df-path").allTextContents();
  expect(files).toContain("name⟨U+202E⟩txt.exe");
  // Nothing on the Changes tab obeys one.
  expect(await page.evaluate(() => /[\u202a-\u202e\u2066-\u2069]/.test(document.getElementById("pane-changes")?.textContent ?? ""))).toBe(false);
  await shots(page, "dashboard-review-bidi");
});

test("the overview's merge waits for the diff and says what it merges; its result stays after the panel goes", async () => {
  const s = await withWork("landing", { "land.txt": "one\ntwo\n" });
  await f.cli(["session", "done", "--session", s.id, "--propose", "merge", "--note", "ready"]);
  await page.waitForFunction((id) => document.querySelector(`tr.row[data-id="${id}"] .badge`)?.textContent === "review", s.id, { timeout: 10000 }).catch(async (e) => {
    throw new Error(`${e.message}: ${await f.cli(["session", "show", s.id, "--json"])}`);
  });
  await openRow(s.id);
  await page.locator("#tab-overview").click(); // the panel opens on the tab last shown
  await page.waitForSelector("#act-merge:not([hidden])");
  let asked = "";
  page.once("dialog", (d) => {
    asked = d.message();
    void d.accept();
  });
  // What the page shows while it asks (a page cannot be read while a dialog is up: it notes it itself).
  await page.evaluate(() => {
    const g = globalThis as any;
    const ask = g.confirm;
    g.confirm = (text: string) => {
      g.__filesShown = document.querySelectorAll("#diff-files li").length;
      return ask(text);
    };
  });
  await page.locator("#act-merge").click();
  await page.waitForFunction((id) => !document.querySelector(`tr.row[data-id="${id}"]`), s.id, { timeout: 20000 });
  expect(asked).toBe("Merge landing into the main branch (1 file, +2 −0) and close it?");
  expect(await page.evaluate(() => (globalThis as any).__filesShown)).toBe(1);
  expect(f.sb.git(["show", "main:land.txt"])).toBe("one\ntwo\n");
  // The panel went with the session; what happened did not.
  expect(await page.locator("#detail").isHidden()).toBe(true);
  await page.waitForFunction(() => /merged spex\/.*landing.* into main .*; closed/.test(document.getElementById("outcomes")?.textContent ?? ""), undefined, { timeout: 5000 });
  expect(await textOf(page, "#outcomes")).not.toMatch(/landing \(\w{8}\) is gone/);
  await shots(page, "dashboard-review-merged");
});

test("merge settings are each session's own: a squash chosen for one is not the next one's", async () => {
  const a = await withWork("squashy", { "a.txt": "a\n" });
  const b = await withWork("plain", { "b.txt": "b\n" });
  await openRow(a.id);
  await page.locator("#tab-changes").click();
  await page.locator("#merge-strategy").selectOption("squash");
  await page.locator("#merge-close").uncheck();
  await page.locator(`tr.row[data-id="${b.id}"]`).click();
  await page.waitForFunction(() => document.getElementById("d-label")?.textContent === "plain", undefined, { timeout: 5000 });
  expect(await page.locator("#merge-strategy").inputValue()).toBe("merge");
  expect(await page.locator("#merge-close").isChecked()).toBe(true);
  await page.locator(`tr.row[data-id="${a.id}"]`).click();
  await page.waitForFunction(() => document.getElementById("d-label")?.textContent === "squashy", undefined, { timeout: 5000 });
  expect(await page.locator("#merge-strategy").inputValue()).toBe("squash");
  expect(await page.locator("#merge-close").isChecked()).toBe(false);
  await page.locator("#tab-overview").click();
  for (const s of [a, b]) await f.cli(["session", "close", "--force", s.id]);
});

test("close with work to lose says what it throws away, and only then forces", async () => {
  const s = await withWork("unfinished", { "half.txt": "half done\n" });
  writeFileSync(join(s.worktree, "scratch.txt"), "not committed\n");
  await openRow(s.id);
  let asked = "";
  page.once("dialog", async (d) => {
    asked = d.message();
    await d.accept();
  });
  await page.locator("#act-close").click();
  await page.waitForFunction((id) => !document.querySelector(`tr.row[data-id="${id}"]`), s.id, { timeout: 20000 });
  expect(asked).toContain("discard 1 commit and 1 file");
  expect(asked).toContain("unfinished's work");
  expect(asked).toContain("scratch.txt");
  expect(f.sb.git(["branch", "--list", s.branch])).toBe("");
  await page.waitForFunction(() => /closed unfinished/.test(document.getElementById("outcomes")?.textContent ?? ""), undefined, { timeout: 5000 });
  expect(await textOf(page, "#outcomes")).not.toMatch(/unfinished \(\w{8}\) is gone/);
});

test("a panel open on a session closed elsewhere (the CLI) goes, and the page says why", async () => {
  const s = await f.session("echo closed-under-me-ready", ["--name", "closed under me"]);
  await openRow(s.id);
  await f.cli(["session", "close", "--force", s.id]);
  await page.waitForSelector("#detail", { state: "hidden", timeout: 10000 });
  expect(await page.locator(`tr.row[data-id="${s.id}"]`).count()).toBe(0);
  await page.waitForFunction(() => /closed under me \(\w{8}\) is gone: it was closed elsewhere/.test(document.getElementById("outcomes")?.textContent ?? ""), undefined, { timeout: 5000 });
  expect(await page.evaluate(() => (globalThis as any).location.hash)).toBe("");
});

test("a corrupt row is quarantined from its panel, and restored from what the page says", async () => {
  const s = await f.session("echo broken-ready", ["--name", "broken"]);
  await f.cli(["session", "stop", s.id]);
  f.sb.git(["worktree", "remove", "--force", s.worktree]);
  f.sb.git(["branch", "-D", s.branch]);
  const [key] = require("node:fs").readdirSync(join(f.sb.home, "projects"));
  const file = join(f.sb.home, "projects", key, "sessions", s.id, "session.json");
  const bytes = readFileSync(file).subarray(0, 50);
  writeFileSync(file, bytes);
  await page.waitForFunction((id) => document.querySelector(`tr.row[data-id="${id}"] .badge`)?.textContent === "corrupt", s.id, { timeout: 10000 });
  await openRow(s.id);
  await page.waitForSelector("#quarantine-form:not([hidden])");
  expect(await page.locator("#act-stop").isHidden()).toBe(true);
  await page.locator("#q-adapter").selectOption("shell");
  await page.locator("#q-tmux").fill(s.tmux);
  await page.locator("#q-worktree").fill(s.worktree);
  await page.locator("#q-branch").fill(s.branch);
  await shots(page, "dashboard-review-quarantine");
  await page.locator("#q-submit").click();
  await page.waitForFunction((id) => !document.querySelector(`tr.row[data-id="${id}"]`), s.id, { timeout: 10000 });
  await page.waitForFunction(() => /quarantined/.test(document.getElementById("outcomes")?.textContent ?? ""), undefined, { timeout: 5000 });
  expect(await textOf(page, "#outcomes")).not.toMatch(/broken \(\w{8}\) is gone/);
  await page.locator("#outcomes button", { hasText: "restore" }).click();
  await page.waitForFunction((id) => document.querySelector(`tr.row[data-id="${id}"] .badge`)?.textContent === "corrupt", s.id, { timeout: 10000 });
  expect(readFileSync(file)).toEqual(bytes);
});

test("a queued session's terminal tab says queued, not stopped", async () => {
  const running = JSON.parse(await f.cli(["session", "ls", "--json"])).filter((r: any) => r.liveness === "online").length;
  for (let i = running; i < 4; i++) await f.session(`echo filler-${i}`, ["--name", `filler ${i}`]);
  const q = await f.session("echo waiting-ready", ["--name", "waiting"]);
  await page.waitForFunction((id) => document.querySelector(`tr.row[data-id="${id}"] .badge`)?.textContent === "queued", q.id, { timeout: 10000 });
  await openRow(q.id);
  await page.locator("#tab-terminal").click();
  await page.waitForFunction(() => /queued/.test(document.getElementById("term-status")?.textContent ?? ""), undefined, { timeout: 10000 });
  expect(await textOf(page, "#term-status")).not.toContain("stopped");
  await page.locator("#tab-overview").click();
});
