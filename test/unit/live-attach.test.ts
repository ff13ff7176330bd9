// `spex session attach` never nests a tmux client: the plan for each place the
// caller can stand (outside tmux, in a client of the session's server, in a
// client of another server, with an old tmux).
import { expect, test } from "bun:test";
import { attachPlan, parseTmuxVersion } from "../../lib/tmux/attach";

const base = { socket: "spex", session: "fix-auth-3f2a", serverPath: "/tmp/tmux-1000/spex", version: [3, 3] as [number, number] };

test("outside tmux: a plain attach to the session's server", () => {
  expect(attachPlan({ ...base, callerTmux: undefined })).toEqual({ way: "attach", args: ["-S", "/tmp/tmux-1000/spex", "attach-session", "-t", "=fix-auth-3f2a"], keepCallerTmux: false });
});

test("inside a client of the same server: switch that client, never a second one", () => {
  const plan = attachPlan({ ...base, callerTmux: "/tmp/tmux-1000/spex,4242,0" });
  expect(plan).toEqual({ way: "switch", args: ["-S", "/tmp/tmux-1000/spex", "switch-client", "-t", "=fix-auth-3f2a"], keepCallerTmux: true });
});

test("inside a client of another server: a popup on the caller's server holding an un-nested client of the session's", () => {
  const plan = attachPlan({ ...base, callerTmux: "/tmp/tmux-1000/default,99,3" });
  expect(plan.way).toBe("popup");
  expect(plan.args.slice(0, 4)).toEqual(["-S", "/tmp/tmux-1000/default", "display-popup", "-E"]);
  expect(plan.args[plan.args.length - 1]).toBe("env -u TMUX tmux -S '/tmp/tmux-1000/spex' attach-session -t '=fix-auth-3f2a'");
});

test("before tmux 3.2 (no popups) the other server's session opens in a new window instead", () => {
  const plan = attachPlan({ ...base, version: [3, 1], callerTmux: "/tmp/tmux-1000/default,99,3" });
  expect(plan.way).toBe("window");
  expect(plan.args.slice(0, 3)).toEqual(["-S", "/tmp/tmux-1000/default", "new-window"]);
});

test("names and paths reach the shell quoted, whatever they hold", () => {
  const plan = attachPlan({ ...base, session: "it's; rm -rf ~", serverPath: "/tmp/my dir/spex", callerTmux: "/tmp/other,1,1" });
  expect(plan.args[plan.args.length - 1]).toBe(`env -u TMUX tmux -S '/tmp/my dir/spex' attach-session -t '=it'\\''s; rm -rf ~'`);
});

test("tmux versions parse from tmux -V", () => {
  expect(parseTmuxVersion("tmux 3.3a")).toEqual([3, 3]);
  expect(parseTmuxVersion("tmux 3.1c")).toEqual([3, 1]);
  expect(parseTmuxVersion("tmux next-3.6")).toEqual([3, 6]);
  expect(parseTmuxVersion("tmux master")).toEqual([99, 0]);
});
