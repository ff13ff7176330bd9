// The merge dispatch prompt tells an agent which commands to run: each one,
// read back by sh, is exactly the command meant, whatever the branch is named
// (git allows $(…), backticks, ; and | in a branch name).
import { describe, expect, test } from "bun:test";
import { dispatchPrompt } from "../../lib/review/dispatch";
import { wordsIn } from "../support/shell-words";

const ID = "3f2a9c1e-0000-4000-8000-000000000000";

describe("the merge dispatch prompt", () => {
  test("every git command in it names the base as one word, and runs nothing else, for a base named with $(…), backticks, ; and |", () => {
    for (const into of ["main", "main$(id)", "main$(echo${IFS}x)", "x;id", "a|sh", "a`id`", "it's", "a&b", "a#b"]) {
      for (const rebase of [false, true]) {
        const prompt = dispatchPrompt({ id: ID, branch: "spex/fix-3f2a", into, intoHead: "0123456789abcdef", conflicts: [], rebase });
        // Markdown code spans: a run of backticks opens one, the next run of the same length closes it.
        const commands = [...prompt.matchAll(/(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g)].map((m) => (m[1]!.length > 1 ? m[2]!.slice(1, -1) : m[2]!)).filter((c) => c.startsWith("git "));
        expect(commands.length).toBe(rebase ? 2 : 3);
        for (const line of commands) {
          const words = wordsIn("sh", line);
          expect({ into, line, words }).toEqual({ into, line, words: [...line.split(" ").slice(0, words.length - 1), into] });
        }
      }
    }
  });
});
