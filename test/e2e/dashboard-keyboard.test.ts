// Keyboard and URLs (issue 24 item 4): rows are reachable by Tab and walked
// with j/k and the arrows, Enter opens a row, Esc closes the panel, `/`
// filters, Ctrl+Enter sends; each panel has a URL (#/s/<id>/<tab>) that
// survives a reload and opens in another tab holding the token.
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { waitFor } from "../support/sandbox";
import { type Fleet, fleet, shots, textOf } from "./dashboard-support";

declare const document: any;

let f: Fleet;
let page: Page;
const ids: string[] = [];
/** Each session's display name, by id. */
const names = new Map<string, string>();

const focusedRow = () => page.evaluate(() => document.activeElement?.closest?.("tr.row")?.dataset.id ?? "");
const hash = () => page.evaluate(() => (globalThis as any).location.hash);

beforeAll(async () => {
  f = await fleet();
  page = f.page;
  for (const name of ["first by key", "second by key", "third by key"]) {
    const id = (await f.session(`echo ${name.replace(/ /g, "-")}`, ["--name", name])).id;
    ids.push(id);
    names.set(id, name);
  }
  await page.goto(f.be.dashboard);
  await page.waitForSelector("#conn.up");
  await page.waitForFunction(() => document.querySelectorAll("tr.row").length === 3, undefined, { timeout: 10000 });
  // The page orders rows by triage (status first): once every command ran and all three rest, the order holds still.
  // The walk below follows the rows as the page shows them.
  await waitFor(async () => (JSON.parse(await f.cli(["session", "ls", "--json"])) as { display: string }[]).every((r) => r.display === "idle"), "all three at rest", 30000);
  const shown = () => page.evaluate(() => [...document.querySelectorAll("tr.row")].map((r: any) => `${r.dataset.id} ${r.textContent.includes("idle")}`).join(","));
  await waitFor(async () => (await shown()).split(",").every((r) => r.endsWith(" true")), "the page showing all three at rest", 10000);
  const order = (await shown()).split(",").map((r) => r.split(" ")[0]!);
  expect([...order].sort()).toEqual([...ids].sort());
  ids.splice(0, ids.length, ...order);
});

afterAll(async () => {
  await f?.close();
});

beforeEach(async () => {
  if (await page.locator("#detail").isVisible()) await page.keyboard.press("Escape");
});

test("Tab reaches the rows; j/k and the arrows walk them; Enter opens one and Esc closes it, back on its row", async () => {
  await page.evaluate(() => document.activeElement?.blur?.());
  await waitFor(async () => {
    await page.keyboard.press("Tab");
    return (await focusedRow()) !== "";
  }, "a row focused by Tab", 10000, 0);
  expect(await focusedRow()).toBe(ids[0]!);
  await page.keyboard.press("j");
  expect(await focusedRow()).toBe(ids[1]!);
  await page.keyboard.press("ArrowDown");
  expect(await focusedRow()).toBe(ids[2]!);
  await page.keyboard.press("j"); // the last row stays
  expect(await focusedRow()).toBe(ids[2]!);
  await page.keyboard.press("k");
  await page.keyboard.press("ArrowUp");
  expect(await focusedRow()).toBe(ids[0]!);
  await page.keyboard.press("j");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#detail:not([hidden])");
  expect(await textOf(page, "#d-label")).toBe(names.get(ids[1]!)!);
  await shots(page, "dashboard-keyboard-open");
  await page.keyboard.press("Escape");
  await page.waitForSelector("#detail", { state: "hidden" });
  expect(await focusedRow()).toBe(ids[1]!);
});

test("/ goes to the filter (without typing a slash); Esc there goes back to the rows", async () => {
  await page.locator(`tr.row[data-id="${ids[0]}"]`).focus();
  await page.keyboard.press("/");
  expect(await page.evaluate(() => document.activeElement?.id)).toBe("filter");
  await page.keyboard.type("third");
  await page.waitForFunction(() => document.querySelectorAll("tr.row").length === 1, undefined, { timeout: 5000 });
  expect(await page.locator("#filter").inputValue()).toBe("third");
  await page.keyboard.press("Escape");
  expect(await focusedRow()).toBe(ids[2]!);
  await page.locator("#filter").fill("");
  await page.waitForFunction(() => document.querySelectorAll("tr.row").length === 3, undefined, { timeout: 5000 });
});

test("Ctrl+Enter in the message box sends it", async () => {
  await page.locator(`tr.row[data-id="${ids[0]}"]`).focus();
  await page.keyboard.press("Enter");
  await page.waitForSelector("#detail:not([hidden])");
  await page.locator("#send-text").focus();
  await page.keyboard.type("echo sent-with-ctrl-enter");
  await page.keyboard.press("Control+Enter");
  await page.waitForFunction(() => /message .*: (delivered|queued)/.test(document.getElementById("d-result")?.textContent ?? ""), undefined, { timeout: 15000 });
  expect(await page.locator("#send-text").inputValue()).toBe("");
  await page.keyboard.press("Escape"); // leaves the box
  await page.keyboard.press("Escape"); // closes the panel
  await page.waitForSelector("#detail", { state: "hidden" });
});

test("a message typed for one session stays with it, and a send answered after a switch says so under the header, not in the other panel", async () => {
  const box = page.locator("#send-text");
  await page.locator(`tr.row[data-id="${ids[0]}"]`).click();
  await box.fill("echo draft-for-the-first");
  // Another session's panel: its own box, empty (Ctrl+Enter here used to send the first one's words to this one).
  await page.locator(`tr.row[data-id="${ids[1]}"]`).click();
  await page.waitForFunction((n) => document.getElementById("d-label")?.textContent === n, names.get(ids[1]!)!, { timeout: 5000 });
  expect(await box.inputValue()).toBe("");
  await page.locator(`tr.row[data-id="${ids[0]}"]`).click();
  await page.waitForFunction((n) => document.getElementById("d-label")?.textContent === n, names.get(ids[0]!)!, { timeout: 5000 });
  expect(await box.inputValue()).toBe("echo draft-for-the-first");
  // The send's answer is held until the second session's panel is open with a draft of its own.
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  let asked = false;
  await page.route(`**/api/sessions/${ids[0]}/send`, async (route) => {
    asked = true;
    await held;
    await route.continue();
  });
  try {
    await box.press("Control+Enter");
    await waitFor(() => asked, "the send asked for");
    await page.locator(`tr.row[data-id="${ids[1]}"]`).click();
    await page.waitForFunction((n) => document.getElementById("d-label")?.textContent === n, names.get(ids[1]!)!, { timeout: 5000 });
    await box.fill("echo draft-for-the-second");
    release();
    const said = `${names.get(ids[0]!)}: message`;
    await page.waitForFunction((w) => [...document.querySelectorAll("#outcomes li .what")].some((e: any) => e.textContent.startsWith(w)), said, { timeout: 15000 });
  } finally {
    release();
    await page.unroute(`**/api/sessions/${ids[0]}/send`);
  }
  expect(await box.inputValue()).toBe("echo draft-for-the-second");
  expect(await textOf(page, "#d-result")).not.toContain("message");
  // The sent draft is gone from the first session's box; the second keeps its own.
  await page.locator(`tr.row[data-id="${ids[0]}"]`).click();
  await page.waitForFunction((n) => document.getElementById("d-label")?.textContent === n, names.get(ids[0]!)!, { timeout: 5000 });
  expect(await box.inputValue()).toBe("");
  await page.locator(`tr.row[data-id="${ids[1]}"]`).click();
  await page.waitForFunction((n) => document.getElementById("d-label")?.textContent === n, names.get(ids[1]!)!, { timeout: 5000 });
  expect(await box.inputValue()).toBe("echo draft-for-the-second");
  await box.fill("");
  await page.locator("#d-close-panel").click();
});

test("a panel's URL names the session and the tab, survives a reload and opens in another tab with the token", async () => {
  await page.locator(`tr.row[data-id="${ids[2]}"]`).click();
  await page.locator("#tab-changes").click();
  await waitFor(async () => (await hash()) === `#/s/${ids[2]}/changes`, "the panel's URL");
  await page.reload();
  await page.waitForSelector("#conn.up");
  await page.waitForFunction((label) => document.getElementById("d-label")?.textContent === label, names.get(ids[2]!), { timeout: 10000 });
  expect(await page.locator("#pane-changes").isVisible()).toBe(true);
  // Back closes the panel, forward opens it again.
  await page.locator("#d-close-panel").click();
  expect(await hash()).not.toContain("/s/");
  await page.goBack();
  await page.waitForFunction((label) => document.getElementById("d-label")?.textContent === label && !document.getElementById("detail").hidden, names.get(ids[2]!), { timeout: 5000 });

  // Someone holding the token opens the URL spex dashboard prints for a session, in a fresh tab.
  const url = (await f.cli(["dashboard", names.get(ids[1]!)!])).trim();
  expect(url).toBe(`${f.be.dashboard}#/s/${ids[1]}`);
  const other = await page.context().newPage();
  try {
    await other.goto(`${url}/terminal`);
    await other.waitForFunction((label) => document.getElementById("d-label")?.textContent === label, names.get(ids[1]!), { timeout: 10000 });
    await other.waitForFunction(() => document.getElementById("term-status")?.textContent === "live", undefined, { timeout: 10000 });
    expect(other.url()).toBe(`${f.be.url}/#/s/${ids[1]}/terminal`);
    // A session that is not there says so, and opens nothing.
    await other.goto(`${f.be.url}/#/s/00000000-0000-4000-8000-000000000000`);
    await other.waitForFunction(() => /no session 00000000/.test(document.getElementById("notice")?.textContent ?? ""), undefined, { timeout: 10000 });
    expect(await other.locator("#detail").isVisible()).toBe(false);
  } finally {
    await other.close();
  }
});

/** A row's panel opened on its Terminal tab with the keyboard alone, the terminal live. */
async function openTerminalByKeyboard(id: string): Promise<void> {
  await page.locator(`tr.row[data-id="${id}"]`).focus();
  await page.keyboard.press("Enter");
  await page.waitForSelector("#detail:not([hidden])");
  await page.locator("#tab-terminal").focus();
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.getElementById("term-status")?.textContent === "live", undefined, { timeout: 10000 });
}

/** Tab until the keyboard is in the terminal (the controls before it vary with the panel's state). */
async function tabIntoTerminal(): Promise<void> {
  await waitFor(async () => {
    await page.keyboard.press("Tab");
    return page.evaluate(() => !!document.activeElement?.closest?.("#term"));
  }, "the keyboard in the terminal", 10000, 0);
}

test("Tab into the terminal takes the keyboard, and what is typed reaches the pane, with no click", async () => {
  const id = ids[1]!;
  await openTerminalByKeyboard(id);
  await tabIntoTerminal();
  await page.waitForFunction(() => document.getElementById("term-writer")?.textContent === "you type here", undefined, { timeout: 5000 });
  await page.keyboard.type("echo typed-from-the-keyboard");
  await page.keyboard.press("Enter");
  const tmux = JSON.parse(await f.cli(["session", "ls", "--json"])).find((r: any) => r.id === id).tmuxSession;
  await waitFor(() => f.sb.tmux(["capture-pane", "-p", "-J", "-t", `=${tmux}:`]).stdout.split("\n").includes("typed-from-the-keyboard"), "the typed command's output in the pane", 15000);
  // Back out the way a keyboard does: the tab, then Esc closes the panel.
  await page.locator("#tab-overview").focus();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Escape");
  await page.waitForSelector("#detail", { state: "hidden" });
});

test("F6 gives the keyboard back from the terminal (Esc stays the program's), and the bar says so while the terminal has it", async () => {
  const id = ids[0]!;
  const sent: string[] = [];
  const onRequest = (r: { url(): string; method(): string; postData(): string | null }) => {
    if (r.method() === "POST" && r.url().includes(`/api/sessions/${id}/pane/keys`)) sent.push(r.postData() ?? "");
  };
  page.on("request", onRequest);
  try {
    await openTerminalByKeyboard(id);
    expect(await page.locator("#term-leave").isVisible()).toBe(false);
    await tabIntoTerminal();
    await page.waitForFunction(() => document.getElementById("term-writer")?.textContent === "you type here", undefined, { timeout: 5000 });
    expect(await textOf(page, "#term-leave")).toContain("F6");
    expect(await page.locator("#term-leave").isVisible()).toBe(true);
    // Esc is the program's: the keyboard stays in the terminal and the panel stays open.
    await page.keyboard.press("Escape");
    await waitFor(() => sent.some((b) => JSON.parse(b).data === "\u001b"), "Esc sent to the pane", 5000);
    expect(await page.evaluate(() => !!document.activeElement?.closest?.("#term"))).toBe(true);

    await page.keyboard.press("F6");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("tab-terminal");
    expect(await page.locator("#term-leave").isVisible()).toBe(false);
    // Out of the terminal, the page's keys work again: Esc closes the panel, back on the session's row.
    await page.keyboard.press("Escape");
    await page.waitForSelector("#detail", { state: "hidden" });
    expect(await focusedRow()).toBe(id);
    // F6 itself never reached the program (xterm would send it as ESC [ 1 7 ~).
    expect(sent.filter((b) => (JSON.parse(b).data ?? "").includes("[17~"))).toEqual([]);
  } finally {
    page.off("request", onRequest);
  }
});

test("the row the keyboard is on keeps it when its session starts needing you and moves to the top", async () => {
  const shown = () => page.evaluate(() => [...document.querySelectorAll("tr.row")].map((r: any) => r.dataset.id));
  const order = await shown();
  const last = order.at(-1)!;
  await page.locator(`tr.row[data-id="${last}"]`).focus();
  expect(await focusedRow()).toBe(last);
  await f.cli(["session", "ask", "--session", last, "--note", "which one?"]);
  await page.waitForFunction((id) => document.querySelector("tr.row")?.dataset.id === id, last, { timeout: 10000 });
  expect(await focusedRow()).toBe(last);
  // The next key walks on from where the row is now.
  await page.keyboard.press("j");
  expect(await focusedRow()).toBe((await shown())[1]!);
});
