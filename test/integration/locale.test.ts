// spex reads what tmux prints, and a tmux client whose locale names no UTF-8
// (LANG unset, C, POSIX: cron, systemd units, containers, an ssh login without
// AcceptEnv) prints the control characters and non-ASCII bytes of a format as
// `_`. Under each such locale `live` still finds every pane with its unicode
// folder and title, a session started there is found running, and its screen
// reads as the pane shows it.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PLAIN_SHELL_COMMAND } from "../../lib/harness/shell";
import { type Sandbox, okJson, sandbox, waitFor } from "../support/sandbox";
import { fileFrom, startShellSession } from "../support/shell-sessions";
import { type SshFleet, sshFleet, sshUnavailable } from "../support/ssh-machines";

let sb: Sandbox;
let fleet: SshFleet | undefined;
afterEach(async () => {
  await fleet?.cleanup();
  fleet = undefined;
  sb?.cleanup();
});

const LOCALE_VARS = ["LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES"];

const LOCALES: Array<[string, Record<string, string>]> = [
  ["LANG unset", {}],
  ["LC_ALL=C", { LC_ALL: "C" }],
  ["LANG=POSIX", { LANG: "POSIX" }],
  // What macOS's ssh sends; Linux has no locale of that name.
  ["LC_CTYPE=UTF-8 alone", { LC_CTYPE: "UTF-8" }],
];

/** A sandbox whose every spex (and tmux) call runs in exactly this locale. */
function sandboxIn(locale: Record<string, string>): Sandbox {
  const s = sandbox();
  for (const k of LOCALE_VARS) delete s.env[k];
  Object.assign(s.env, locale, { SPEX_TMUX_SERVERS: s.tmuxSocket });
  return s;
}

describe.each(LOCALES)("with %s", (_name, locale) => {
  test("live finds every pane with its unicode folder, title and screen; a session started here is running and reads right", async () => {
    sb = sandboxIn(locale);
    // A plain pane in a unicode folder that titles itself and prints unicode.
    const folder = join(sb.dir, "dossier ünïcødé ✓");
    mkdirSync(folder);
    const script = `printf '\\033]2;%s\\033\\\\' 'tïtle ✓'; printf '%s\\n' 'héllo wörld ✓'; exec cat`;
    // The server starts in this locale too (spex may be the first to start it, as here it is).
    const started = sb.tmux(["new-session", "-d", "-s", "plain-ü", "-c", folder, "-x", "80", "-y", "10", "sh", "-c", script]);
    expect(started.stderr).toBe("");
    const plain = await waitFor(() => {
      const rows = okJson(sb.spex(["session", "live", "--json"])) as any[];
      const row = rows.find((r) => r.session === "plain-ü");
      return row?.title === "tïtle ✓" && row.lastVisibleLine ? row : undefined;
    }, "live to list the plain pane with its title", 15000, 100);
    expect([plain.cwd, plain.command, plain.lastVisibleLine]).toEqual([folder, "cat", "héllo wörld ✓"]);

    // A governed session made and read in this locale.
    const s = startShellSession(sb, PLAIN_SHELL_COMMAND, "printf '%s\\n' 'grüße ✓'");
    await waitFor(() => sb.spex(["session", "read", s.id]).stdout.includes("\ngrüße ✓"), "the session's screen to show its output", 15000, 100);
    const rows = okJson(sb.spex(["session", "live", "--json"])) as any[];
    const governed = rows.find((r) => r.session === s.tmuxSession);
    expect([governed?.isOpenSession, governed?.sessionId, governed?.cwd]).toEqual([true, s.id, s.worktree]);
    const listed = (okJson(sb.spex(["session", "ls", "--json"])) as any[]).find((r) => r.id === s.id);
    expect(listed?.liveness).toBe("online");
  });
});

// An ssh server passes no locale of the client's without AcceptEnv, so the
// remote spex gets whatever (often nothing) the machine gives a login.
test.skipIf(sshUnavailable() !== undefined)("live --all-machines lists the panes of a machine whose logins get no locale at all", async () => {
  sb = sandbox();
  fleet = await sshFleet(sb, ["bare"], { locale: {} });
  const m = fleet.machines[0]!;
  Object.assign(sb.env, { SPEX_SSH_COMMAND: fleet.sshCommand, SPEX_MACHINE: "local", SPEX_TMUX_SERVERS: sb.tmuxSocket });
  expect(m.ssh("env").stdout).not.toMatch(/^(LANG|LC_[A-Z]+)=/m);
  okJson(sb.spex(["machine", "add", "bare", "bare", "--repo", m.repo, "--json"]));
  okJson(sb.spex(["machine", "install", "bare", "--json"]));
  expect(m.tmux(["new-session", "-d", "-s", "remote-ü", "-x", "80", "-y", "10", "cat"]).stderr).toBe("");
  const rows = okJson(sb.spex(["session", "live", "--all-machines", "--json"])) as any[];
  expect(rows.filter((r) => r.error)).toEqual([]);
  expect(rows.filter((r) => r.machine === "bare").map((r) => [r.session, r.command])).toEqual([["remote-ü", "cat"]]);
});

// A pane gets the environment of whichever process started the tmux server:
// the agent must run in the locale of whoever launched it instead.
test("an agent, and a terminal, run in the locale they were launched from, whatever locale started the tmux server", async () => {
  sb = sandboxIn({});
  const charmap = async (locale: Record<string, string>) => {
    const s = startShellSession(sb, PLAIN_SHELL_COMMAND, "locale charmap > charmap.txt", locale);
    return (await fileFrom(s, "charmap.txt")).trim();
  };
  // The first launch starts the server with LC_ALL=C; the next comes from a UTF-8 terminal, the last from cron (no locale).
  expect(await charmap({ LC_ALL: "C" })).toBe("ANSI_X3.4-1968");
  expect(await charmap({ LANG: "C.UTF-8" })).toBe("UTF-8");
  expect(await charmap({})).toBe("ANSI_X3.4-1968");
  // A terminal opened beside them too.
  const out = join(sb.dir, "terminal-charmap.txt");
  expect(sb.spex(["terminal", "new", "--", "sh", "-c", `locale charmap > '${out}.tmp' && mv '${out}.tmp' '${out}'`], { env: { LANG: "C.UTF-8" } }).code).toBe(0);
  await waitFor(() => existsSync(out), "the terminal to write its charmap", 15000, 50);
  expect(readFileSync(out, "utf8").trim()).toBe("UTF-8");
});
