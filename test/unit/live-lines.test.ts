// live reads only the newest lines of each screen it classifies
// (lib/live/classify.ts newestLines with a limit): the lines it reads must be
// exactly those the whole screen, split and filtered, would give.
import { expect, test } from "bun:test";
import fc from "fast-check";
import { lastVisibleLine, newestLines } from "../../lib/live";

/** The plain reading: every line, trailing blanks dropped, blank lines skipped, newest first. */
function allNewest(screen: string): string[] {
  return screen
    .split("\n")
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== "")
    .reverse();
}

const screens = fc.array(fc.oneof(fc.constantFrom("", " ", "\t", "  x ", "$ ", "❯ ", "a\u00a0", "\r"), fc.string({ maxLength: 12 })), { maxLength: 40 }).map((ls) => ls.join("\n"));

test("the newest N lines of a screen are the first N of all its lines, newest first", () => {
  fc.assert(
    fc.property(screens, fc.integer({ min: 0, max: 45 }), (screen, n) => {
      expect(newestLines(screen)).toEqual(allNewest(screen));
      expect(newestLines(screen, n)).toEqual(allNewest(screen).slice(0, n));
      const last = allNewest(screen)[0];
      expect(lastVisibleLine(screen)).toBe(last === undefined ? null : last.trim().replace(/\s+/g, " "));
    }),
    { numRuns: 2000 },
  );
});
