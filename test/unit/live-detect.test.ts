// Which rule set a pane spex does not govern gets: by its foreground command,
// its process tree, or its screen banner; a shell in the foreground is generic.
import { expect, test } from "bun:test";
import { type ProcessSource, detectRuleSet, parsePaneLines, LIST_FORMAT, liveServers } from "../../lib/live";

const noProcs: ProcessSource = { commandLines: () => [] };
const tree = (lines: string[]): ProcessSource => ({ commandLines: () => lines });

test("the foreground command names the agent", () => {
  expect(detectRuleSet("claude", 1, "", noProcs).harness).toBe("claude");
  expect(detectRuleSet("codex", 1, "", noProcs).harness).toBe("codex");
  expect(detectRuleSet("gemini", 1, "", noProcs).harness).toBe("gemini");
});

test("a node foreground is resolved through the pane's process tree", () => {
  expect(detectRuleSet("node", 1, "", tree(["bash", "node /usr/lib/node_modules/@google/gemini-cli/bundle/gemini.js"])).harness).toBe("gemini");
  expect(detectRuleSet("node", 1, "", tree(["node /x/node_modules/@openai/codex/bin/codex.js", "/x/codex-linux-x64/vendor/codex"])).harness).toBe("codex");
  expect(detectRuleSet("node", 1, "", tree(["/x/@anthropic-ai/claude-code/bin/claude.exe --session-id 1"])).harness).toBe("claude");
});

test("a screen banner names the agent when the process tree does not", () => {
  expect(detectRuleSet("node", 1, "│ >_ OpenAI Codex (v0.171.0) │", noProcs).harness).toBe("codex");
});

test("a shell in the foreground is generic even when an agent banner is still on screen", () => {
  expect(detectRuleSet("bash", 1, "✻ Welcome to Claude Code!", tree(["claude"])).harness).toBe("generic");
});

test("an unknown program is generic", () => {
  expect(detectRuleSet("vim", 1, "~\n~\n", tree(["vim notes.txt"])).harness).toBe("generic");
});

test("list-panes lines parse into panes, a separator inside the title staying in the title", () => {
  const sep = "\x1f";
  const line = ["work", "1", "0", "%7", "node", "/home/dev/p", "0", "1", "4242", `title${sep}with sep`].join(sep);
  const [pane] = parsePaneLines("spex", line + "\n");
  expect(pane).toEqual({ socket: "spex", session: "work", windowIndex: "1", paneIndex: "0", paneId: "%7", command: "node", cwd: "/home/dev/p", paneDead: false, paneActive: true, panePid: 4242, title: `title${sep}with sep` });
  expect(LIST_FORMAT.split(sep)).toHaveLength(10);
});

test("SPEX_TMUX_SERVERS replaces the scanned servers; 'default' names the user's default server", () => {
  expect(liveServers({ SPEX_TMUX_SERVERS: "a, default,a" })).toEqual(["a", ""]);
  const none = { spexSocket: "", sockets: [] };
  expect(liveServers({ SPEX_TMUX: "mine" }, none)).toEqual(["mine", ""]);
  expect(liveServers({}, { spexSocket: "fleet", sockets: ["extra"] })).toEqual(["fleet", "", "extra"]);
});

test("the sockets running sessions were put on are scanned too, unless SPEX_TMUX_SERVERS names the list", () => {
  const none = { spexSocket: "", sockets: [] };
  expect(liveServers({}, none, ["fleet", "spex", "default"])).toEqual(["spex", "", "fleet"]);
  expect(liveServers({ SPEX_TMUX_SERVERS: "only" }, none, ["fleet"])).toEqual(["only"]);
});

test("the user's own server is scanned once, whether it is named 'default' or not at all", () => {
  expect(liveServers({ SPEX_TMUX: "default" }, { spexSocket: "", sockets: ["default"] })).toEqual([""]);
  expect(liveServers({}, { spexSocket: "default", sockets: [] })).toEqual([""]);
});
