import { expect, test } from "bun:test";
import { completeWords } from "../../lib/cli/complete";

const commands = [
  { paths: [["session", "show"]], options: ["--json"], takesSelector: true },
  { paths: [["session", "stop"]], options: ["--json"], takesSelector: true },
  { paths: [["session", "new"], ["session", "create"]], options: ["--json", "--launcher"], takesSelector: false },
  { paths: [["session", "watch"]], options: ["--watcher"], takesSelector: true },
  { paths: [["session", "watch", "cancel"]], options: ["--watcher", "--json"], takesSelector: true },
  { paths: [["doctor"]], options: ["--json"], takesSelector: false },
];
const sels = () => ["3f2a9c1e", "auth-fixer"];

test("the first word completes to the top-level verbs", () => {
  expect(completeWords([""], commands, sels)).toEqual(["doctor", "session"]);
});

test("a partial verb completes among that group's verbs, aliases included", () => {
  expect(completeWords(["session", "s"], commands, sels)).toEqual(["show", "stop"]);
  expect(completeWords(["session", "c"], commands, sels)).toEqual(["create"]);
});

test("after a verb that takes a selector: its options and the sessions", () => {
  expect(completeWords(["session", "show", ""], commands, sels)).toEqual(["--json", "3f2a9c1e", "auth-fixer"]);
  expect(completeWords(["session", "show", "au"], commands, sels)).toEqual(["auth-fixer"]);
  expect(completeWords(["session", "new", "--l"], commands, sels)).toEqual(["--launcher"]);
});

test("the longest matching path wins, and its own next words are offered", () => {
  expect(completeWords(["session", "watch", "ca"], commands, sels)).toEqual(["cancel"]);
  expect(completeWords(["session", "watch", "cancel", "--"], commands, sels)).toEqual(["--json", "--watcher"]);
});
