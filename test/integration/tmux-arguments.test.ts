// Text that reaches tmux's own argument parser (DESIGN.md §13): tmux expands
// the start folder of a session or a terminal (`-c`) as a format, in which
// `#(cmd)` runs cmd in a shell. An agent that may call only spex's MCP tools
// (spex allows them unasked) asked for a start folder named `#(…)`: spex made
// the folder, and tmux ran the command, outside every permission the agent
// CLI enforces. A folder is a folder, whatever its name.
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { connectMcp, jsonOf } from "../support/mcp";
import { type Sandbox, okJson, sandbox, waitFor } from "../support/sandbox";
import { seedRecord } from "../support/records";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

const pwned = () => readdirSync(sb.dir).filter((n) => n.startsWith("pwned-"));

test("a start folder named #(…) is a folder: over MCP, on the command line and for a terminal, no command in it runs", async () => {
  sb = sandbox();
  const caller = seedRecord(sb.home, sb.repo, { prompt: "an orchestrator" }).session_id;
  const mcp = await connectMcp(sb, { env: { SPEX_SESSION_ID: caller } });
  try {
    const folder = (tag: string) => `#(touch ${sb.dir}/pwned-${tag})`;
    const made = await mcp.call("session_new", { prompt: "sleep 600", launcher: "shell", directory: folder("mcp") });
    expect(made.isError).toBeFalsy();
    const viaMcp = jsonOf(made) as { session_id: string; worktree_path: string };
    const cli = okJson(sb.spex(["session", "new", "--launcher", "shell", "--directory", folder("cli"), "--json", "sleep 600"]));
    mkdirSync(join(sb.repo, folder("term")), { recursive: true });
    const term = okJson(sb.spex(["terminal", "new", "--dir", folder("term"), "--json", "--", "sh", "-c", 'pwd; exec sleep 600']));
    const screen = () => okJson(sb.spex(["terminal", "read", term.id, "--json"])).screen as string;
    await waitFor(() => screen().startsWith("/"), "the terminal to print its folder");
    // By now tmux has started every session and terminal, and run whatever it would have run.
    expect(pwned()).toEqual([]);
    // Each runs in the folder it asked for.
    expect(screen()).toBe(join(sb.repo, folder("term")));
    for (const s of [viaMcp, cli]) {
      const pane = sb.tmux(["display-message", "-p", "-t", `=${okJson(sb.spex(["session", "show", s.session_id, "--json"])).tmuxSession}:`, "#{pane_current_path}"]).stdout.trim();
      expect(pane.startsWith(join(s.worktree_path, "#(touch "))).toBe(true);
    }
    expect(existsSync(join(viaMcp.worktree_path, folder("mcp")))).toBe(true);
  } finally {
    await mcp.close();
  }
});

test("a session name with #(…) in it is that name: tmux expands -s as a format too, and nothing in it runs", async () => {
  sb = sandbox();
  const { newSession } = await import("../../lib/tmux");
  const name = `s#(touch ${sb.dir}/pwned-name)#{pid}`;
  const r = newSession({ socket: sb.tmuxSocket, name, cwd: sb.repo, command: "sleep 600" });
  expect(r.code).toBe(0);
  expect(sb.tmux(["list-sessions", "-F", "#{session_name}"]).stdout.trim()).toBe(name);
  expect(pwned()).toEqual([]);
});
