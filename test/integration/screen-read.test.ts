// Reading a screen (issue 13, item 2) and un-archiving (item 8), with the
// built binary and real tmux panes: the visible screen now, its colours with
// --styled, scrollback with --history; `show` of a running session carries the
// current screen; `stop` keeps the last one; `archive --restore` relaunches nothing.
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { type Sandbox, okJson, sandbox, waitFor } from "../support/sandbox";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { alive, hasTmux, panePid, seedLive, sessionDir } from "../support/teardown";

setDefaultTimeout(60000);
let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

const json = okJson;
const read = (id: string, ...args: string[]) => json(sb.spex(["session", "read", id, "--json", ...args]));

// 300 numbered lines, then a red word and a bold green one, then the program waits: a 30-row pane shows the tail.
const PAINTER = `sh -c 'i=1; while [ $i -le 300 ]; do echo line-$i; i=$((i+1)); done; printf "\\033[31mred-word\\033[0m plain \\033[1;32mbold-green\\033[0m\\n"; printf "ready\\n\\n\\n"; exec sleep 1000'`;

describe("session read", () => {
  test("the visible screen, trailing blank rows trimmed; --history adds scrollback; --styled keeps the colours", async () => {
    const s = seedLive(sb, { command: PAINTER });
    await waitFor(() => read(s.id).screen.includes("ready"), "the pane to print");
    const plain = read(s.id);
    expect(plain).toMatchObject({ id: s.id, source: "pane", live: true, styled: false, history: 0 });
    const rows = plain.screen.split("\n");
    // The seeded pane is 30 rows: what it shows, and not a line of what scrolled away.
    expect(rows.length).toBeLessThanOrEqual(30);
    expect(rows.slice(-2)).toEqual(["red-word plain bold-green", "ready"]);
    expect(rows[0]).toMatch(/^line-\d+$/);
    expect(plain.screen).not.toContain("\u001b");
    expect(plain.screen).not.toContain("line-1\n");

    const deeper = read(s.id, "--history", "100");
    const first = Number(rows[0].slice(5));
    expect(deeper.screen.split("\n")[0]).toBe(`line-${first - 100}`);
    expect(deeper.screen.endsWith(plain.screen)).toBe(true);

    const styled = read(s.id, "--styled");
    expect(styled.styled).toBe(true);
    expect(styled.screen).toContain("\u001b[31mred-word");
    expect(styled.screen).toMatch(/\u001b\[1m(\u001b\[32m)?bold-green|\u001b\[1;32mbold-green/);
    // It ends with a reset, so it never leaves a reader's terminal coloured.
    expect(styled.screen.endsWith("\u001b[0m")).toBe(true);
    // For a person, only the colour sequences pass; the text is the same as the plain read's.
    const human = sb.spex(["session", "read", s.id, "--styled"]);
    expect(human.stdout.replace(/\u001b\[[0-9;:]*m/g, "")).toBe(plain.screen + "\n");
    expect(sb.spex(["session", "read", s.id]).stdout).toBe(plain.screen + "\n");
  });

  test("--history must be a whole number of lines", () => {
    const s = seedLive(sb, { tmux: false });
    for (const bad of ["-3", "ten", "1e3", "100001"]) {
      const r = sb.spex(["session", "read", s.id, `--history=${bad}`, "--json"]);
      expect([bad, r.code, JSON.parse(r.stdout).error.code]).toEqual([bad, 2, "usage"]);
    }
  });
});

describe("show and stop", () => {
  test("show of a running session includes its current screen; stop keeps the last screen, which show and read then give", async () => {
    const s = seedLive(sb, { command: "sh -c 'echo first-words; exec sleep 1000'" });
    await waitFor(() => read(s.id).screen.includes("first-words"), "the pane to print");
    sb.tmux(["send-keys", "-t", `=${s.tmuxName}:`, "-l", "typed-later"]);
    await waitFor(() => read(s.id).screen.includes("typed-later"), "the typed text");
    const shown = json(sb.spex(["session", "show", s.id, "--json"]));
    expect(shown.screen).toBe("first-words\ntyped-later");
    expect(sb.spex(["session", "show", s.id]).stdout).toContain("\nscreen:\nfirst-words\ntyped-later\n");

    const stopped = json(sb.spex(["session", "stop", s.id, "--json"]));
    expect(stopped.leaf).toBe("terminated");
    expect(hasTmux(sb, s.tmuxName)).toBe(false);
    const after = json(sb.spex(["session", "show", s.id, "--json"]));
    expect([after.screen, after.lastScreen]).toEqual([null, "first-words\ntyped-later\n"]);
    expect(sb.spex(["session", "show", s.id]).stdout).toContain("\nlast screen:\nfirst-words\ntyped-later\n");
    expect(read(s.id)).toMatchObject({ source: "last-screen", live: false, screen: "first-words\ntyped-later" });
  });

  test("a link planted as last-screen.txt is never written through: stop still stops, show and read give no saved screen", async () => {
    const s = seedLive(sb, { command: "sh -c 'echo secret-screen; exec sleep 1000'" });
    await waitFor(() => read(s.id).screen.includes("secret-screen"), "the pane to print");
    const target = join(sb.dir, "elsewhere.txt");
    writeFileSync(target, "untouched\n");
    symlinkSync(target, join(sessionDir(sb, s.id), "last-screen.txt"));
    expect(json(sb.spex(["session", "stop", s.id, "--json"]))).toMatchObject({ leaf: "terminated", changed: true });
    expect(readFileSync(target, "utf8")).toBe("untouched\n");
    expect(read(s.id)).toMatchObject({ source: "none", screen: "" });
    expect(json(sb.spex(["session", "show", s.id, "--json"])).screen).toBe(null);
    // archive of a live pane refuses rather than write through it, and changes nothing.
    const other = seedLive(sb, { slug: "other", command: "sleep 1000" });
    symlinkSync(target, join(sessionDir(sb, other.id), "last-screen.txt"));
    const archived = sb.spex(["session", "archive", other.id, "--json"]);
    expect([archived.code, JSON.parse(archived.stdout).error.code]).toEqual([1, "unsafe_path"]);
    expect(readFileSync(target, "utf8")).toBe("untouched\n");
    expect(json(sb.spex(["session", "ls", other.id, "--json"]))[0].archived).toBe(false);
  });

  test("a session that never had a pane reads as an empty screen, not an error", () => {
    const s = seedLive(sb, { tmux: false });
    expect(read(s.id)).toEqual({ id: s.id, source: "none", live: false, styled: false, history: 0, screen: "" });
    expect(sb.spex(["session", "read", s.id]).stdout).toBe("");
  });
});

describe("archive --restore", () => {
  test("un-archives a live session without touching its pane, and a stopped one without relaunching it", async () => {
    const live = seedLive(sb, { slug: "live-one", command: "sh -c 'echo live; exec sleep 1000'" });
    const stopped = seedLive(sb, { slug: "stopped-one", command: "sleep 1000" });
    await waitFor(() => read(live.id).screen.includes("live"), "the pane to print");
    const pid = panePid(sb, live.tmuxName);
    json(sb.spex(["session", "archive", live.id, "--json"]));
    json(sb.spex(["session", "archive", stopped.id, "--stop", "--json"]));
    expect(json(sb.spex(["session", "ls", "--json"]))).toEqual([]);

    expect(json(sb.spex(["session", "archive", "--restore", live.id, "--json"]))).toEqual({ id: live.id, archived: false, changed: true });
    expect(json(sb.spex(["session", "archive", "--restore", "spex/stopped-one", "--json"]))).toEqual({ id: stopped.id, archived: false, changed: true });
    const rows = json(sb.spex(["session", "ls", "--json"]));
    expect(rows.map((r: any) => [r.id, r.archived, r.stopped]).sort()).toEqual([[live.id, false, false], [stopped.id, false, true]].sort());
    // The live pane is the same process; the stopped one got no pane and no agent.
    expect(panePid(sb, live.tmuxName)).toBe(pid);
    expect(alive(pid)).toBe(true);
    expect(hasTmux(sb, stopped.tmuxName)).toBe(false);
    expect(rows.find((r: any) => r.id === stopped.id).liveness).toBe("offline");

    // Again: nothing to do, said so; with --stop it is a usage error.
    expect(json(sb.spex(["session", "archive", "--restore", live.id, "--json"]))).toEqual({ id: live.id, archived: false, changed: false });
    const both = sb.spex(["session", "archive", "--restore", "--stop", live.id, "--json"]);
    expect([both.code, JSON.parse(both.stdout).error.code]).toEqual([2, "usage"]);
  });
});
