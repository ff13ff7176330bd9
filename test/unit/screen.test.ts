// Screens for people and scripts: what is trimmed from a captured screen, and
// what of a styled screen reaches a reader's terminal.
import { expect, test } from "bun:test";
import { Writable } from "node:stream";
import { printableStyled } from "../../lib/cli/output";
import { writeScreen } from "../../lib/cli/screen";
import { trimScreenEnd } from "../../lib/tmux/screen";

const ESC = "\u001b";

test("a styled screen keeps its colour sequences and shows every other control escaped", () => {
  const hostile = `${ESC}]0;pwned\u0007${ESC}]52;c;ZXZpbA==\u0007${ESC}[2J${ESC}[Hvisible ${ESC}[35mmagenta${ESC}[0m ${ESC}[38:5:196mdeep${ESC}[m\u009b31m`;
  const shown = printableStyled(hostile);
  const sequences = shown.match(/\u001b[^a-zA-Z]*[a-zA-Z]/g) ?? [];
  expect(sequences).toEqual([`${ESC}[35m`, `${ESC}[0m`, `${ESC}[38:5:196m`, `${ESC}[m`]);
  expect(shown).not.toContain("\u0007");
  expect(shown).not.toContain("\u009b");
  expect(shown).toContain("\\x1b]0;pwned\\x07");
  expect(shown).toContain("\\x1b[2J\\x1b[Hvisible ");
});

test("a plain screen shows every control escaped, colours included", () => {
  let out = "";
  const sink = new Writable({ write: (c, _e, cb) => ((out += c), cb()) });
  writeScreen(sink, `a ${ESC}[31mred`, false);
  expect(out).toBe("a \\x1b[31mred\n");
  out = "";
  writeScreen(sink, "", false);
  expect(out).toBe("");
});

test("trailing blank rows go, styled blank rows too, and a styled screen ends reset", () => {
  expect(trimScreenEnd("one  \ntwo\n\n   \n\n")).toBe("one\ntwo");
  expect(trimScreenEnd(`${ESC}[31mred\n${ESC}[0m${ESC}[39m\n\n`, true)).toBe(`${ESC}[31mred${ESC}[0m`);
  expect(trimScreenEnd("no colour\n\n", true)).toBe("no colour");
  expect(trimScreenEnd("\n\n\n")).toBe("");
});
