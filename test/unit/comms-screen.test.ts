// The screen half of "at rest" and the paste echo check, on fixture screens.
import { describe, expect, test } from "bun:test";
import { echoProbe, pasteEchoed, screenAtRest } from "../../lib/comms";
import { composerCleared, composerEcho } from "../../lib/comms/screen";

const claudeIdle = [
  "╭───────────────────────────────────────────╮",
  "│ ✻ Welcome to Claude Code!                 │",
  "╰───────────────────────────────────────────╯",
  "",
  "● Done: the tests pass.",
  "",
  "────────────────────────────────────────────",
  "> ",
  "────────────────────────────────────────────",
  "  ? for shortcuts",
].join("\n");

const claudeWorking = [
  "● Reading files",
  "",
  "✻ Pondering… (12s · esc to interrupt)",
  "",
  "────────────────────────────────────────────",
  "> ",
  "────────────────────────────────────────────",
].join("\n");

const claudeApproval = [
  "Bash command",
  "  rm -rf build",
  "Do you want to proceed?",
  "❯ 1. Yes",
  "  2. No, and tell Claude what to do differently (esc)",
].join("\n");

describe("screenAtRest", () => {
  test("a claude composer with no dialog is at rest", () => {
    expect(screenAtRest("claude", claudeIdle).atRest).toBe(true);
  });

  test("a claude turn in progress is not at rest even with the composer drawn", () => {
    expect(screenAtRest("claude", claudeWorking).atRest).toBe(false);
  });

  test("an approval dialog is never at rest, and the reason says why", () => {
    const v = screenAtRest("claude", claudeApproval);
    expect(v.atRest).toBe(false);
    expect(v.reason).toMatch(/approval/);
  });

  test("a shell session has no screen contract", () => {
    expect(screenAtRest("shell", "anything at all").atRest).toBe(true);
  });
});

describe("pasteEchoed", () => {
  test("the text's last line appearing once more than before counts as the echo", () => {
    const before = "> ";
    expect(pasteEchoed(before, "> first line\nsecond line", "first line\nsecond line")).toBe(true);
    expect(pasteEchoed(before, "> ", "first line\nsecond line")).toBe(false);
  });

  test("text already on screen before the paste does not count", () => {
    const before = "old: please run the tests\n> ";
    expect(pasteEchoed(before, before, "please run the tests")).toBe(false);
    expect(pasteEchoed(before, before + "please run the tests", "please run the tests")).toBe(true);
  });

  test("wrapping inside a bordered composer is ignored", () => {
    const text = "a fairly long instruction that will wrap inside the box";
    const after = "│ > a fairly long instruction that will │\n│ wrap inside the box                      │";
    expect(pasteEchoed("│ >  │", after, text)).toBe(true);
  });

  test("claude's folded paste placeholder counts as the echo", () => {
    expect(pasteEchoed("> ", "> [Pasted text #1 +12 lines]", "x\n".repeat(12))).toBe(true);
  });

  test("the probe leaves control bytes out", () => {
    expect(echoProbe("line one\nend\u0007 of it")).toBe("ofit");
  });
});

describe("proving a composer clear of an interrupted paste", () => {
  const text = "[message from boss; it cannot receive replies]\nrun the migration now";
  const withText = claudeIdle.replace("> ", "> run the migration now");
  const baseline = composerEcho(claudeIdle, text);

  test("the text still in the composer is not clear; gone from it, it is", () => {
    expect(baseline.probe).not.toBe("");
    expect(composerCleared(withText, baseline)).toBe(false);
    expect(composerCleared(claudeIdle, baseline)).toBe(true);
  });

  test("a paste folded into a placeholder counts as the text", () => {
    const folded = claudeIdle.replace("> ", "> [Pasted text #1 +2 lines]");
    expect(composerCleared(folded, baseline)).toBe(false);
  });

  test("the same words further up the screen (an earlier turn) do not count, only the composer area", () => {
    const history = ["> run the migration now", "● Done.", ...Array.from({ length: 14 }, (_, i) => `● line ${i}`), claudeIdle].join("\n");
    const before = composerEcho(history, text);
    expect(composerCleared(history, before)).toBe(true);
    expect(composerCleared(history.replace(/> $/m, "> run the migration now"), before)).toBe(false);
  });

  test("a text with nothing printable proves nothing", () => {
    expect(composerCleared(claudeIdle, composerEcho(claudeIdle, "\n \n"))).toBe(false);
  });
});
