// Tables keep their columns straight when a cell holds text a terminal draws
// wider or narrower than one cell a character: emoji drawn as pictures (✅ ⚡,
// two cells), combining accents (none), CJK (two). The cells are counted the
// way the terminal (wcwidth, tmux) counts them.
import { afterEach, describe, expect, test } from "bun:test";
import stringWidth from "string-width";
import { type Sandbox, okJson, sandbox, waitFor } from "../support/sandbox";

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
