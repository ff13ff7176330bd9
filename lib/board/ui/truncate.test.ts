import { describe, expect, test } from "bun:test";
import stringWidth from "string-width";
import truncateToCells from "./truncate";

const POSITIONS = ["end", "start", "middle"] as const;
const TEXTS = ["ab世界cd", "abc世界cdef", "a🎉🎉🎉b", "\u001b[31m漢字漢字\u001b[39m tail", "plain ascii text", "é́ combining ✓"];

describe("a cut line never runs past its width", () => {
  for (const position of POSITIONS) {
    test(`with wide characters at every cut, position ${position}`, () => {
      for (const text of TEXTS) {
        for (let columns = 1; columns <= stringWidth(text) + 1; columns++) {
          const cut = truncateToCells(text, columns, { position });
          expect({ text, columns, width: stringWidth(cut) <= columns }).toEqual({ text, columns, width: true });
          if (stringWidth(text) > columns) expect(cut).toContain("…");
          else expect(cut).toBe(text);
        }
      }
    });
  }
  test("a wide character that straddles the cut goes, and the line is one cell short rather than one over", () => {
    expect(truncateToCells("ab世界cd", 4)).toBe("ab…");
    expect(truncateToCells("a🎉🎉🎉", 5)).toBe("a🎉…");
  });
});
