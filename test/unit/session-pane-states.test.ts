// What tmux says of a session's panes (lib/tmux sessionPaneStates), the one
// reading behind a launch's readiness wait, settle and the pane routes: every
// pane with whether it is dead, or `gone` with tmux's words, on a real server,
// in a UTF-8 locale and in C.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { sessionPaneStates, sessionPanes } from "../../lib/tmux";
import { waitFor } from "../support/sandbox";

const SOCKET = `spex-panes-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
const tmux = (...args: string[]) => spawnSync("tmux", ["-L", SOCKET, "-f", "/dev/null", ...args], { encoding: "utf8" });
const savedConf = process.env.SPEX_TMUX_CONF;

beforeAll(async () => {
  process.env.SPEX_TMUX_CONF = "/dev/null";
  // "mixed": a live pane and one that ended (kept by remain-on-exit); "ended": its only pane ended.
  for (const [name, second] of [["mixed", "sleep 600"], ["ended", ""]] as const) {
    expect(tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", second ? "sleep 600" : "true", ";", "set-option", "-w", "-t", `=${name}:`, "remain-on-exit", "on").status).toBe(0);
    if (second) expect(tmux("split-window", "-t", `=${name}:`, "true").status).toBe(0);
  }
  // A pane that outran the option: start it again now that the option holds.
  tmux("respawn-pane", "-k", "-t", "=ended:", "true");
  await waitFor(() => {
    const mixed = sessionPaneStates(SOCKET, "mixed");
    const ended = sessionPaneStates(SOCKET, "ended");
    return mixed && "panes" in mixed && mixed.panes.some((p) => p.dead) && ended && "panes" in ended && ended.panes.every((p) => p.dead);
  }, "the short panes to end");
});

afterAll(() => {
  tmux("kill-server");
  if (savedConf === undefined) delete process.env.SPEX_TMUX_CONF;
  else process.env.SPEX_TMUX_CONF = savedConf;
});

for (const locale of [{ LANG: "C.UTF-8", LC_ALL: "" }, { LANG: undefined, LC_ALL: "C" }]) {
  describe(`LANG=${locale.LANG ?? "(unset)"} LC_ALL=${locale.LC_ALL || "(unset)"}`, () => {
    const saved = { LANG: process.env.LANG, LC_ALL: process.env.LC_ALL };
    beforeAll(() => {
      for (const [k, v] of Object.entries(locale)) {
        if (v) process.env[k] = v;
        else delete process.env[k];
      }
    });
    afterAll(() => {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    });

    test("every pane of a session with whether it is dead", () => {
      const mixed = sessionPaneStates(SOCKET, "mixed");
      expect(mixed && "panes" in mixed && mixed.panes.map((p) => p.dead).sort()).toEqual([false, true]);
      expect(mixed && "panes" in mixed && mixed.panes.every((p) => /^%\d+$/.test(p.id))).toBe(true);
      const ended = sessionPaneStates(SOCKET, "ended");
      expect(ended && "panes" in ended && ended.panes.map((p) => p.dead)).toEqual([true]);
    });

    test("a session that is not there, and a server that is not there, are gone with tmux's words", () => {
      expect(sessionPaneStates(SOCKET, "absent")).toEqual({ gone: expect.stringContaining("can't find session") });
      // An exact name: a prefix of another session's name is not that session.
      expect(sessionPaneStates(SOCKET, "mix")).toEqual({ gone: expect.stringContaining("can't find session") });
      expect(sessionPaneStates(`${SOCKET}-none`, "mixed")).toEqual({ gone: expect.stringMatching(/no server running|error connecting/) });
      // What teardown asks after kill-session: no pane of another session is taken for one left.
      expect(sessionPanes(SOCKET, "mix")).toEqual([]);
      expect(sessionPanes(SOCKET, "mixed")).toHaveLength(2);
    });
  });
}
