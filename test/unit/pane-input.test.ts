// What the browser's terminal may send and show (issue 17): typed data
// becomes tmux key names and literal runs only; a captured frame keeps
// colours and nothing else that a terminal would act on.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { isSafeKey } from "../../lib/tmux";
import { keyCommands, literalArg, terminalKeys } from "../../lib/tmux/keys";
import { displayOnly, parseHistoryAnswer, parsePaneAnswer } from "../../lib/backend/pane-frame";

describe("terminalKeys", () => {
  test("keys xterm sends become tmux key names", () => {
    expect(terminalKeys("ls -la\r")).toEqual([{ literal: "ls -la" }, { key: "Enter" }]);
    expect(terminalKeys("\u001b[A\u001b[B\u001b[1;5C\u001b[1;2D\u001bOP\u001b[15~\u001b[3~\u001b[Z")).toEqual(
      ["Up", "Down", "C-Right", "S-Left", "F1", "F5", "DC", "BTab"].map((key) => ({ key })),
    );
    expect(terminalKeys("\u0003\u007f\t\u001bx\u001b")).toEqual(["C-c", "BSpace", "Tab", "M-x", "Escape"].map((key) => ({ key })));
    expect(terminalKeys("日本語 😀")).toEqual([{ literal: "日本語 😀" }]);
  });

  test("string sequences, unknown CSI and paste brackets are dropped, the text around them kept", () => {
    expect(terminalKeys("a\u001b]0;title\u0007b\u001bP+q544e\u001b\\c\u001b[?1;2cd\u001b[200~e\u001b[201~")).toEqual([{ literal: "abcde" }]);
  });

  test("whatever is typed, every step is a safe key name or printable text", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", ";", "-", "\u001b", "[", "]", "O", "1", "~", "\r", "\u0007", "\u0000", "\u009b", "#", "{", "é", "\\") , maxLength: 40 }), (data) => {
        for (const s of terminalKeys(data)) {
          if ("key" in s) expect(isSafeKey(s.key)).toBe(true);
          else expect(s.literal).toMatch(/^[^\u0000-\u001f\u007f-\u009f]+$/u);
        }
      }),
    );
  });

  test("a literal ending in ; is escaped so tmux does not end its command there", () => {
    expect(literalArg("echo a;")).toBe("echo a\\;");
    expect(literalArg("a;b")).toBe("a;b");
    expect(keyCommands("%3", [{ literal: "-t x;" }, { key: "Enter" }])).toEqual([
      ["send-keys", "-t", "%3", "-l", "--", "-t x\\;"],
      ["send-keys", "-t", "%3", "--", "Enter"],
    ]);
    expect(() => literalArg("a\u001bb")).toThrow();
  });
});

describe("pane frames", () => {
  test("colours stay; titles, queries, mode switches, hyperlinks and controls go", () => {
    expect(displayOnly("\u001b[1;31mred\u001b[0m \u001b]0;t\u0007\u001b]8;;http://x\u001b\\link\u001b[6n\u001b[?1049h\u0007\u0008\u009bend")).toBe("\u001b[1;31mred\u001b[0m linkend");
  });

  test("a tmux answer becomes a frame of exactly its rows; anything else is no frame", () => {
    const f = parsePaneAnswer("10 3 2 1 1 0 42\nab\ncd\n")!;
    expect(f).toEqual({ cols: 10, rows: 3, cursor: { x: 2, y: 1, visible: true }, text: "ab\ncd\n", history: 42, dead: false });
    expect(parsePaneAnswer("10 3 2 1 1 0\nab\ncd\n")).toBeUndefined();
    expect(parsePaneAnswer("can't find pane\n")).toBeUndefined();
    expect(parsePaneAnswer("")).toBeUndefined();
  });

  test("scrollback comes as display text, at most its recorded size, none when tmux has none", () => {
    expect(parsePaneAnswer("10 3 2 1 1 0 42\nab\ncd\n")!.history).toBe(42);
    expect(parseHistoryAnswer("2\n\u001b[31mone\u001b[0m\u001b]0;title\u0007\ntwo\n")).toEqual({ history: 2, lines: ["\u001b[31mone\u001b[0m", "two"] });
    expect(parseHistoryAnswer("0\nthe screen's first row\n")).toEqual({ history: 0, lines: [] });
    expect(parseHistoryAnswer("can't find pane\n")).toBeUndefined();
  });
});
