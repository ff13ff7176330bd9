// Completion over the real command registry: verbs, options, and for a value
// or a positional what it names (sessions, launchers, groups).
import { expect, test } from "bun:test";
import { commands } from "../../cmd/registry";
import { completeWords } from "../../lib/cli/complete";
import { shapeOf } from "../../lib/cli/shape";

const shapes = commands.map(shapeOf);
const sources = {
  session: () => ["3f2a9c1e", "auth-fixer"],
  launcher: () => ["claude", "codex", "gemini", "shell", "mine"],
  group: () => ["fleet", "fleet/api"],
  machine: () => ["box2", "gpu1"],
};
const complete = (...words: string[]) => completeWords(words, shapes, sources);

test("the first word completes to the namespaces and top-level verbs, never the hidden ones", () => {
  const first = complete("");
  expect(first).toEqual(expect.arrayContaining(["session", "task", "group", "reserve", "doctor", "serve", "version"]));
  expect(first).not.toContain("internal");
});

test("a partial verb completes among that namespace's verbs, aliases included", () => {
  expect(complete("session", "sh")).toEqual(["show"]);
  expect(complete("session", "cr")).toEqual(["create"]);
});

test("after a verb that takes a selector: its options and the sessions; a filled selector is not offered again", () => {
  expect(complete("session", "show", "")).toEqual(expect.arrayContaining(["--json", "3f2a9c1e", "auth-fixer"]));
  expect(complete("session", "show", "au")).toEqual(["auth-fixer"]);
  expect(complete("session", "show", "3f2a9c1e", "")).toEqual(["--json", "--machine", "--repo"]);
  expect(complete("session", "new", "--l")).toEqual(["--launcher"]);
});

test("--machine <Tab> offers the configured machines, on session verbs and live alike", () => {
  expect(complete("session", "send", "--machine", "")).toEqual(["box2", "gpu1"]);
  expect(complete("session", "live", "--machine=g")).toEqual(["--machine=gpu1"]);
});

test("--launcher <Tab> offers launchers, not option names", () => {
  expect(complete("session", "new", "--launcher", "")).toEqual(["claude", "codex", "gemini", "mine", "shell"]);
  expect(complete("session", "new", "--launcher", "c")).toEqual(["claude", "codex"]);
  expect(complete("session", "new", "--launcher=c")).toEqual(["--launcher=claude", "--launcher=codex"]);
  // bash splits `--launcher=c` at the `=`.
  expect(complete("session", "new", "--launcher", "=", "c")).toEqual(["claude", "codex"]);
});

test("--group <Tab> offers groups; an option with a free value offers nothing (the shell falls back to files)", () => {
  expect(complete("session", "new", "--group", "")).toEqual(["fleet", "fleet/api"]);
  expect(complete("session", "new", "--prompt-file", "")).toEqual([]);
  expect(complete("session", "new", "--name", "")).toEqual([]);
});

test("options that name a session offer sessions", () => {
  expect(complete("session", "done", "--session", "")).toEqual(["3f2a9c1e", "auth-fixer"]);
  expect(complete("session", "new", "--parent", "a")).toEqual(["auth-fixer"]);
  expect(complete("session", "reparent", "3f2a9c1e", "--to", "")).toEqual(["3f2a9c1e", "auth-fixer"]);
});

test("group file <Tab> offers groups where the group goes, then sessions", () => {
  expect(complete("group", "file", "")).toEqual(expect.arrayContaining(["fleet", "fleet/api"]));
  expect(complete("group", "file", "")).not.toContain("3f2a9c1e");
  expect(complete("group", "file", "fleet", "")).toEqual(expect.arrayContaining(["3f2a9c1e", "auth-fixer"]));
  expect(complete("group", "file", "fleet", "")).not.toContain("fleet/api");
  expect(complete("group", "rm", "fl")).toEqual(["fleet", "fleet/api"]);
});

test("a task id is not a session: task claim offers no sessions", () => {
  expect(complete("task", "claim", "")).not.toContain("3f2a9c1e");
});

test("the longest matching path wins, and its own next words are offered", () => {
  expect(complete("session", "watch", "ca")).toEqual(["cancel"]);
  expect(complete("session", "watch", "cancel", "--")).toEqual(["--json", "--watcher"]);
});

test("completion's own table (lib/generated/completion.ts) is current and answers as the full command shapes do", async () => {
  const { readFileSync } = await import("node:fs");
  const { COMPLETION_FILE, renderCompletionModule } = await import("../../scripts/gen-commands");
  const { COMPLETION } = await import("../../lib/generated/completion");
  expect(readFileSync(COMPLETION_FILE, "utf8")).toBe(renderCompletionModule());
  const lines = [
    [""], ["session", ""], ["session", "sh"], ["session", "show", ""], ["session", "show", "--"], ["session", "new", "--launcher", ""],
    ["session", "new", "--launcher=c"], ["session", "new", "--launcher", "=", "c"], ["session", "send", "--machine", ""], ["group", "file", ""],
    ["group", "file", "fleet", ""], ["session", "watch", "cancel", "--"], ["session", "done", "--session", ""], ["task", "claim", ""], ["internal", ""],
    ["session", "reparent", "3f2a9c1e", "--to", ""], ["session", "ls", "--status", "x", ""], ["session", "live", "--machine=g"],
  ];
  for (const words of lines) expect({ words, got: completeWords(words, COMPLETION, sources) }).toEqual({ words, got: complete(...words) });
});
