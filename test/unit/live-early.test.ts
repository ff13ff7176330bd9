// Which argv lets live start its tmux calls before the verb loads (lib/live/early.ts).
import { expect, test } from "bun:test";
import { plainLiveObservation } from "../../lib/live/early";

test("the plain observation: every pane, once, with or without --json, --once and a --status filter", () => {
  for (const args of [
    ["session", "live"],
    ["session", "live", "--json"],
    ["session", "live", "--once", "--json"],
    ["session", "live", "--status", "needs_attention", "--json"],
    ["session", "live", "--status=idle,dead"],
  ]) expect({ args, plain: plainLiveObservation(args) }).toEqual({ args, plain: true });
});

test("anything that narrows, repeats, goes to other machines or only asks for help starts nothing early", () => {
  for (const args of [
    ["session", "ls"],
    ["session", "live", "--help"],
    ["session", "live", "-h"],
    ["session", "live", "--watch"],
    ["session", "live", "--open-only"],
    ["session", "live", "--project", "api"],
    ["session", "live", "-p", "api"],
    ["session", "live", "--machine", "box"],
    ["session", "live", "--all-machines"],
    ["session", "live", "--status"],
    ["session", "live", "extra"],
  ]) expect({ args, plain: plainLiveObservation(args) }).toEqual({ args, plain: false });
});
