// Issue 28.7: `attach` where it cannot attach (no terminal on stdin, or inside
// tmux with no client to show it in) is a spex error with a code and what to
// do, never tmux's raw `open terminal failed: not a terminal` / `no current client`.
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, SPEX_BIN, sandbox, waitFor } from "../support/sandbox";
import { shellWord } from "../../lib/tmux/quote";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

function running(): { id8: string; tmux: string } {
  sb = sandbox();
  writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ launchers: { idle: { harness: "shell", command: "sh -c 'exec sleep 600' idle" } } }));
  const made = JSON.parse(sb.spex(["session", "new", "--launcher", "idle", "--json", "keep going"]).stdout);
  return { id8: made.session_id.slice(0, 8), tmux: made.tmux_session };
}

describe("attach without a terminal", () => {
  test("a terminal named TERM=dumb (or no TERM): not_a_terminal, naming a TERM to use, not tmux's `terminal does not support clear`", () => {
    const s = running();
    for (const term of ["dumb", ""]) {
      // script(1) gives the attach a real terminal on its input, as an editor's shell buffer or a bare console would.
      const r = Bun.spawnSync(["script", "-qec", `${shellWord(SPEX_BIN)} session attach ${s.id8}`, "/dev/null"], {
        cwd: sb.repo,
        env: { ...sb.env, TERM: term, PATH: process.env.PATH! },
        stdin: "ignore",
      });
      const out = r.stdout.toString();
      expect({ term, code: r.exitCode }).toEqual({ term, code: 1 });
      expect(out).not.toContain("open terminal failed");
      expect(out).toContain("[not_a_terminal]");
      expect(out).toContain(`TERM=xterm-256color spex session attach ${s.id8}`);
    }
  });


  test("stdin not a terminal: not_a_terminal, pointing at read", () => {
    const s = running();
    const r = sb.spex(["session", "attach", s.id8], { input: "" });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`spex: attach needs a terminal, and its input is not one; run it in a terminal, or print its screen here with \`spex session read ${s.id8}\` [not_a_terminal]\n`);
    expect(r.stderr).not.toContain("open terminal failed");
    expect(JSON.parse(sb.spex(["session", "attach", s.id8, "--json"], { input: "" }).stdout).error.code).toBe("not_a_terminal");
  });

  test("inside tmux with no client attached (a script run by tmux): tmux_no_client, on its own server and on another", () => {
    const s = running();
    const own = sb.tmux(["display-message", "-p", "-t", `=${s.tmux}:`, "#{socket_path}"]).stdout.trim();
    // Another server the caller "is in", with no client either.
    const other = `${sb.tmuxSocket}-caller`;
    const make = Bun.spawnSync(["tmux", "-L", other, "-f", "/dev/null", "new-session", "-d", "-s", "caller"], { env: sb.env });
    expect(make.exitCode).toBe(0);
    try {
      const otherPath = Bun.spawnSync(["tmux", "-L", other, "display-message", "-p", "-t", "caller:", "#{socket_path}"], { env: sb.env }).stdout.toString().trim();
      for (const path of [own, otherPath]) {
        const r = sb.spex(["session", "attach", s.id8], { env: { TMUX: `${path},1,0`, TMUX_PANE: "%0" } });
        expect({ path, code: r.code }).toEqual({ path, code: 1 });
        expect(r.stderr).toMatch(/^spex: no tmux client is attached .* \[tmux_no_client\]\n$/);
        expect(r.stderr).not.toContain("no current client\n");
      }
    } finally {
      Bun.spawnSync(["tmux", "-L", other, "kill-server"], { env: sb.env });
    }
  });
});

describe("attach from a login whose locale names no charset", () => {
  // An ssh login without AcceptEnv, cron or a container: LANG unset or C, in front of a UTF-8 terminal. A tmux
  // client that believes the locale draws every non-ASCII character of the agent's screen as `_`.
  const clientUtf8 = async (locale: Record<string, string>): Promise<string> => {
    const s = running();
    const env: Record<string, string> = { ...sb.env, TERM: "xterm-256color", PATH: process.env.PATH! };
    for (const k of ["LANG", "LC_ALL", "LC_CTYPE"]) delete env[k];
    const attach = Bun.spawn(["script", "-qec", `${shellWord(SPEX_BIN)} session attach ${s.id8}`, "/dev/null"], { cwd: sb.repo, env: { ...env, ...locale }, stdin: "pipe", stdout: "ignore", stderr: "ignore" });
    try {
      const flag = await waitFor(() => sb.tmux(["list-clients", "-t", `=${s.tmux}`, "-F", "#{client_utf8}"]).stdout.trim() || undefined, "the attached client", 15000);
      sb.tmux(["detach-client", "-s", `=${s.tmux}`]);
      await attach.exited;
      return flag;
    } finally {
      attach.kill();
    }
  };

  test("LANG unset or C: the client draws UTF-8", async () => {
    expect(await clientUtf8({})).toBe("1");
    sb.cleanup();
    expect(await clientUtf8({ LC_ALL: "C" })).toBe("1");
  });

  test("a locale that names another charset is left to tmux", async () => {
    expect(await clientUtf8({ LANG: "en_US.ISO-8859-1" })).toBe("0");
  });
});

