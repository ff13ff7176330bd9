// The dashboard's patch reader (web/patch.ts): line kinds and file positions
// a diff comment quotes, including content lines that look like headers.
import { expect, test } from "bun:test";
import { commentMessage, parsePatch } from "../../web/patch";

const PATCH = [
  "diff --git a/notes.txt b/notes.txt",
  "index 1111111..2222222 100644",
  "--- a/notes.txt",
  "+++ b/notes.txt",
  "@@ -1,3 +1,4 @@",
  " first",
  "-old second",
  "+++ looks like a header",
  "+new second",
  " third",
  "diff --git a/gone.txt b/gone.txt",
  "deleted file mode 100644",
  "--- a/gone.txt",
  "+++ /dev/null",
  "@@ -1 +0,0 @@",
  "-only line",
  "\\ No newline at end of file",
  "",
].join("\n");

test("lines are placed in their file: new numbers for added and context lines, old ones for removed lines", () => {
  const lines = parsePatch(PATCH);
  const shown = lines.map((l) => [l.kind, l.path, l.line ?? l.oldLine ?? null]);
  expect(shown).toEqual([
    ["file", "notes.txt", null],
    ["meta", "notes.txt", null],
    ["meta", "notes.txt", null],
    ["meta", "notes.txt", null],
    ["hunk", "notes.txt", null],
    ["ctx", "notes.txt", 1],
    ["del", "notes.txt", 2],
    ["add", "notes.txt", 2],
    ["add", "notes.txt", 3],
    ["ctx", "notes.txt", 4],
    ["file", "gone.txt", null],
    ["meta", "gone.txt", null],
    ["meta", "gone.txt", null],
    ["meta", "gone.txt", null],
    ["hunk", "gone.txt", null],
    ["del", "gone.txt", 1],
    ["note", "gone.txt", null],
  ]);
});

test("a comment quotes file:line and the line without its marker", () => {
  const lines = parsePatch(PATCH);
  expect(commentMessage(lines[8]!, " why? ")).toBe("notes.txt:3\n> new second\nwhy?");
  expect(commentMessage(lines[6]!, "keep it")).toBe("notes.txt:2 (a removed line)\n> old second\nkeep it");
});
