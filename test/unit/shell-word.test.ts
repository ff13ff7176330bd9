// shellWord writes a word a person pastes into bash, zsh or sh: each case is
// read back by the shells themselves, not compared with a spelling.
import { describe, expect, test } from "bun:test";
import { shellWord, tmuxCommandLine } from "../../lib/tmux/quote";
import { wordsIn } from "../support/shell-words";

const awkward = ["=orphan-3b0a", "=ls", "~", "~root", "#comment", "a#b", "%1", "-t", "x=y", "a b", "it's", "$(id)", "`id`", "*", "[a]", "{a,b}", "!x", "a;b", "", "a\nb", "a\tb\rc", "caf\u00e9", "\u0085line", "\\", "'\n'", "a\u001b[31mred"];

describe("shellWord", () => {
  test("a word that starts with =, ~ or # is quoted; plain words stay bare", () => {
    expect(shellWord("=orphan-3b0a")).toBe("'=orphan-3b0a'");
    expect(shellWord("~")).toBe("'~'");
    expect(shellWord("#x")).toBe("'#x'");
    expect(shellWord("x=y")).toBe("x=y");
    expect(shellWord("orphan-3b0a")).toBe("orphan-3b0a");
    expect(shellWord("/tmp/a.b:c@d%e+f")).toBe("/tmp/a.b:c@d%e+f");
  });

  test("a word with a control character stays on one line", () => {
    for (const w of ["a\nb", "a\rb", "\u0085", "a\u001bb"]) expect(shellWord(w)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/u);
  });

  test("bash and zsh read each word back as it was, one word each", () => {
    for (const shell of ["bash", "zsh"]) {
      expect({ shell, words: wordsIn(shell, awkward.map(shellWord).join(" ")) }).toEqual({ shell, words: awkward });
    }
  });

  test("sh reads back every word without a control character", () => {
    const plain = awkward.filter((w) => !/[\u0000-\u001f\u007f-\u009f]/u.test(w));
    expect(wordsIn("sh", plain.map(shellWord).join(" "))).toEqual(plain);
  });

  test("a printed tmux line names the exact session in zsh", () => {
    const line = tmuxCommandLine("my socket", ["kill-session", "-t", "=orphan-3b0a"]);
    const words = wordsIn("zsh", line);
    expect(words).toEqual(["tmux", "-L", "my socket", "kill-session", "-t", "=orphan-3b0a"]);
  });
});
