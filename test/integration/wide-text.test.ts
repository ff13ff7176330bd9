// Tables keep their columns straight when a cell holds text a terminal draws
// wider or narrower than one cell a character: emoji drawn as pictures (✅ ⚡,
// two cells), combining accents (none), CJK (two). The cells are counted the
// way the terminal (wcwidth, tmux) counts them. On a terminal they fit its
// width, narrow ones too.
import { afterEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import stringWidth from "string-width";
import { type Sandbox, SPEX_BIN, okJson, sandbox, waitFor } from "../support/sandbox";
import { installed } from "../support/shell-sessions";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

const ACCENT = "e\u0301"; // é as e and a combining acute
const TEXTS = ["ok✅⚡", `caf${ACCENT}`, "wide漢字", "plain"];

/** The cell each line's `marker` starts at, as a terminal places it. */
function columnOf(lines: string[], marker: RegExp): number[] {
  return lines.map((l) => {
    const at = l.search(marker);
    expect(at).toBeGreaterThan(0);
    return stringWidth(l.slice(0, at));
  });
}

describe.each([["bin"], ["node"]] as const)("through %s", (runner) => {
  test("ls lines its columns up under the header whatever the labels and prompts hold", () => {
    sb = sandbox();
    for (const t of TEXTS) okJson(sb.spex(["session", "new", "--launcher", "shell", "--no-launch", "--json", "--name", t, `say ${t} done`], { runner }));
    const lines = sb.spex(["session", "ls"], { runner }).stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(1 + TEXTS.length);
    const branch = columnOf(lines, /BRANCH|spex\//);
    expect(new Set(branch).size).toBe(1);
    const prompt = columnOf(lines, /PROMPT|say /);
    expect(new Set(prompt).size).toBe(1);
  });

  test("live lines its columns up whatever the panes' session names hold", async () => {
    sb = sandbox({ repo: false });
    Object.assign(sb.env, { SPEX_TMUX_SERVERS: sb.tmuxSocket });
    for (const t of TEXTS) expect(sb.tmux(["new-session", "-d", "-s", `s-${t}`, "-x", "80", "-y", "5", "cat"]).stderr).toBe("");
    await waitFor(() => (okJson(sb.spex(["session", "live", "--json"], { runner })) as unknown[]).length === TEXTS.length, "live to list every pane", 10000, 100);
    const lines = sb.spex(["session", "live"], { runner }).stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(1 + TEXTS.length);
    const server = columnOf(lines, new RegExp(`SERVER|${sb.tmuxSocket}`));
    expect(new Set(server).size).toBe(1);
  });
});

/** spex on a real terminal (a pty from script(1)) of this width: what it wrote, colour sequences and the pty's CRs taken out. */
function onTerminal(args: string[], columns: number, term = "xterm-256color"): string {
  const command = `stty cols ${columns} rows 50; exec '${SPEX_BIN}' ${args.map((a) => `'${a}'`).join(" ")}`;
  const r = spawnSync("script", ["-qec", command, "/dev/null"], { cwd: sb.repo || sb.dir, env: { ...sb.env, TERM: term }, encoding: "utf8", input: "" });
  expect(r.status).toBe(0);
  return r.stdout.replace(/\r\n/g, "\n").replace(/\u001b\[[0-9;]*m/g, "");
}

describe.skipIf(!installed("script"))("on a terminal", () => {
  test("live fits the width: the last line is cut first, then the target; never the status or the session", async () => {
    sb = sandbox({ repo: false });
    Object.assign(sb.env, { SPEX_TMUX_SERVERS: sb.tmuxSocket });
    const names = ["a-very-long-session-name-that-goes-on-and-on", "short", `wide-漢字漢字漢字漢字漢字-✅`];
    for (const n of names) expect(sb.tmux(["new-session", "-d", "-s", n, "-x", "120", "-y", "5", "sh", "-c", `printf '%s\\n' '${"long output line ".repeat(6)}'; exec cat`]).stderr).toBe("");
    await waitFor(() => (okJson(sb.spex(["session", "live", "--json"])) as { lastVisibleLine: string }[]).filter((r) => r.lastVisibleLine).length === names.length, "every pane's output", 10000, 100);
    for (const columns of [160, 100, 60, 40]) {
      const lines = onTerminal(["session", "live"], columns).trimEnd().split("\n");
      expect(lines).toHaveLength(1 + names.length);
      expect(lines[0]).toStartWith("TARGET ");
      expect(lines.filter((l) => stringWidth(l) > columns)).toEqual([]);
      for (const l of lines.slice(1)) expect(l).toMatch(/ (active|idle) /);
    }
    // Piped, nothing is cut.
    expect(sb.spex(["session", "live"]).stdout).toContain(`a-very-long-session-name-that-goes-on-and-on:0.0`);
    // --watch clears the screen before each table on a terminal that can, and on TERM=dumb prints no escapes at all.
    const watch = ["session", "live", "--watch", "--interval", "0.1", "--count", "2"];
    expect(onTerminal(watch, 100)).toContain("\u001b[H\u001b[2J");
    const dumb = onTerminal(watch, 100, "dumb");
    expect(dumb).not.toContain("\u001b");
    expect(dumb.match(/^observed /gm)).toHaveLength(2);
  });

  test("ls cuts columns down to fit but never widens one: a short label keeps its width", () => {
    sb = sandbox();
    okJson(sb.spex(["session", "new", "--launcher", "shell", "--no-launch", "--json", "--name", "tiny", "a prompt long enough that the table must be cut to fit a narrow terminal"]));
    for (const columns of [60, 50]) {
      const lines = onTerminal(["session", "ls"], columns).trimEnd().split("\n");
      expect(lines[0]).toMatch(/ LABEL  BRANCH/);
      expect(lines.filter((l) => stringWidth(l) > columns)).toEqual([]);
    }
  });
});
