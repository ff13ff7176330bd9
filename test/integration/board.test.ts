// `spex board` driven in a real terminal (a tmux pane of its own) the way a
// person drives it: filter, move, send, diff, merge, stop, close, quit, with
// the sessions' real tmux panes and git work behind it, and the terminal
// handed back as it was found.
import { afterEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import stringWidth from "string-width";
import { type Sandbox, SPEX_BIN, SPEX_CJS, sandbox, waitFor } from "../support/sandbox";
import { installed, row, startShellSession, waitIdle } from "../support/shell-sessions";
import { shellWord } from "../../lib/tmux/quote";
import { type BoardTerminal, boardPid, boardTerminal, expectRestored, openBoard } from "../support/board-terminal";

let sb: Sandbox | undefined;
let term: BoardTerminal | undefined;
afterEach(() => {
  term?.kill();
  sb?.cleanup();
  term = undefined;
  sb = undefined;
});

const bash = installed("bash");

async function quitAndCheckRestored(t: BoardTerminal, sbx: Sandbox): Promise<void> {
  t.keys("q");
  await expectRestored(t, sbx, 0);
}

test.skipIf(!bash)(
  "the board in a real terminal: filter, move, send, diff, merge, stop, close, quit, and the terminal is left as it was",
  async () => {
    sb = sandbox();
    const alpha = startShellSession(sb, "bash", "echo one > alpha.txt && git add alpha.txt && git commit -qm 'alpha work'");
    waitIdle(sb, alpha);
    const beta = startShellSession(sb, "bash", "echo draft > notes.txt");
    waitIdle(sb, beta);
    const a8 = alpha.id.slice(0, 8);
    const b8 = beta.id.slice(0, 8);
    term = boardTerminal(sb);
    await openBoard(term, sb);
    const first = await term.until(b8);
    expect(first).toContain(a8);
    expect(first).toContain("2 idle");

    // Filter: only what matches, then everything again.
    term.keys("/");
    term.type("notes");
    let s = await term.until("1 of 2");
    expect(s).toContain(b8);
    expect(s).not.toContain(`${a8} idle`);
    term.keys("Enter", "Escape");
    await term.until("2 sessions");

    // Move: the preview follows the selection, live from the session's pane.
    // The filter left beta selected (the session it found stays selected once cleared): Home takes the first row.
    term.keys("Home");
    s = await term.until(/ AGE[^\n]*\n› \w{8} /);
    const firstSelected = / AGE[^\n]*\n› (\w{8}) /.exec(s)![1]!;
    await term.until(`── ${firstSelected} `);
    term.keys("j");
    const second = firstSelected === a8 ? b8 : a8;
    await term.until(`── ${second} `);
    term.keys("k");
    await term.until(`── ${firstSelected} `);
    // Plain (ls) order keeps rows in place while statuses change (triage would lift a working row): alpha first, so Home and End pick them.
    term.keys("o");
    await term.until("plain order");
    const select = async (id8: string) => {
      term!.keys(id8 === a8 ? "Home" : "End");
      await term!.until(`── ${id8} `);
    };

    // Send: typed into the editor, delivered to the pane, run by its shell.
    await select(b8);
    term.keys("s");
    await term.until(`send to ${b8}`);
    term.type("echo sent-from-board > sent.txt");
    term.keys("Enter");
    await term.until(`sent to ${b8}:`);
    await waitFor(() => existsSync(join(beta.worktree, "sent.txt")), "the sent command to run in the session", 20000, 50);
    await term.until("sent-from-board"); // the preview shows the pane's new lines

    // Diff: the branch's committed work, scrollable; q goes back.
    await select(a8);
    term.keys("d");
    s = await term.until("+one");
    expect(s).toContain("alpha.txt");
    term.keys("q");
    await term.untilGone("+one");

    // Merge: pick merge, confirm; the main branch has the work.
    term.keys("m");
    await term.until("strategy:");
    term.keys("Enter");
    await term.until("[y/N]");
    term.keys("y");
    await waitFor(() => sb!.git(["log", "--format=%s", "main"]).includes("alpha work"), "the main branch to have alpha's commit", 20000, 50);
    await term.untilGone("[y/N]");

    // Stop: asks first; stopped, ls says offline, and so does the board.
    await select(b8);
    term.keys("x");
    await term.until(`stop ${b8}`);
    term.keys("y");
    await waitFor(() => row(sb!, beta.id)?.stopped === true, "beta to be stopped", 20000, 100);
    await term.until(new RegExp(`${b8} offline`));

    // Close: the confirm lists what would be thrown away; yes closes it (forced, as confirmed).
    term.keys("c");
    s = await term.until("Closing throws away:");
    expect(s).toContain("notes.txt");
    expect(s).toContain("sent.txt");
    term.keys("y");
    await waitFor(() => row(sb!, beta.id) === undefined, "beta to be closed", 20000, 100);
    s = await term.until("1 session");
    expect(s).toContain(`closed ${b8}`);
    expect(s).not.toContain(`${b8} offline`);
    expect(existsSync(beta.worktree)).toBe(false);

    await quitAndCheckRestored(term, sb);
  },
  180_000,
);

test("off a terminal the board prints nothing on stdout and says to use ls (board_needs_terminal)", () => {
  sb = sandbox();
  for (const runner of ["bin", "node"] as const) {
    const r = sb.spex(["board"], { runner });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("spex session ls");
    expect(r.stderr).toContain("[board_needs_terminal]");
  }
});

test("on a terminal named TERM=dumb (or no TERM) the board draws nothing and says not_a_terminal, naming ls and live --watch", () => {
  sb = sandbox();
  for (const name of ["dumb", ""]) {
    // script(1) gives the board a real terminal on both sides, as an editor's shell buffer or a CI log's pty would.
    // The timeout ends a board that drew anyway (it would wait for keys).
    const r = spawnSync("script", ["-qec", `${shellWord(SPEX_BIN)} board`, "/dev/null"], {
      cwd: sb.repo,
      env: { ...sb.env, TERM: name, PATH: process.env.PATH! },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 15_000,
      encoding: "utf8",
    });
    const out = r.stdout;
    expect({ name, code: r.status }).toEqual({ name, code: 1 });
    expect(out).not.toContain("\u001b[");
    expect(out).toContain("[not_a_terminal]");
    expect(out).toContain("spex session ls");
    expect(out).toContain("spex session live --watch");
    expect(out).toContain("TERM=xterm-256color spex board");
  }
});

test("the Node bundle runs the board too (Ink from dist/board.mjs beside it), and Ctrl-C leaves the terminal as found", async () => {
  sb = sandbox();
  startShellSession(sb, "bash", "echo hello");
  term = boardTerminal(sb);
  await openBoard(term, sb, `node '${SPEX_CJS}' board`);
  await term.until("1 session");
  term.keys("C-c");
  const after = await term.until(/board exited \d+/);
  expect(after).toContain("before-the-board");
  expect(t2(term)).toBe("0 1");
});

const t2 = (t: BoardTerminal) => t.format("#{alternate_on} #{cursor_flag}");

test("SIGTERM, NO_COLOR and a resize to 80×24: the board draws no colour, reflows to fit, and a kill leaves the terminal restored", async () => {
  sb = sandbox();
  startShellSession(sb, "bash", "echo hello");
  term = boardTerminal(sb, { env: { NO_COLOR: "1" } });
  await openBoard(term, sb);
  await term.until("1 session");
  // Colour is an SGR with a colour parameter (30-37, 90-97, 38;…): none on the board.
  expect(term.screen(true)).not.toMatch(/\u001b\[[0-9;]*(3[0-8]|9[0-7])[;m]/);
  // A resize reflows the next frame; 80×24 fits: no line past 80 cells, the keys on the last line of the frame.
  spawnSync("tmux", ["-L", term.socket, "resize-window", "-t", "term", "-x", "80", "-y", "24"]);
  const rows = await waitFor(() => {
    const r = term!.screen().replace(/\n$/, "").split("\n");
    return r.length === 24 && r[0]!.startsWith("spex board · repo") && r[22]!.startsWith("↑↓ move") ? r : undefined;
  }, "the board redrawn at 80×24, header on the first line and keys on the 23rd", 15000);
  expect(rows.every((l) => [...l].length <= 80)).toBe(true);
  process.kill(boardPid(term), "SIGTERM");
  const after = await term.until(/board exited \d+/);
  expect(after).toContain("board exited 143");
  expect(after).toContain("before-the-board");
  expect(t2(term)).toBe("0 1");
});

test.skipIf(!bash || !installed("script"))("Enter attaches: outside tmux the board steps aside for tmux attach and is drawn again on detach; inside tmux the session opens in a popup that detach closes", async () => {
  sb = sandbox();
  const s = startShellSession(sb, "bash", "echo inside-the-session");
  waitIdle(sb, s);
  term = boardTerminal(sb);
  // A client on the terminal's server, as a person's terminal is (a popup needs one to show on); script gives it a pty.
  const { spawn } = await import("node:child_process");
  const client = spawn("script", ["-qfc", `tmux -L ${term.socket} attach -t term`, "/dev/null"], { env: { ...sb.env, TERM: "xterm-256color" }, stdio: ["pipe", "ignore", "ignore"] });
  try {
    await waitFor(() => spawnSync("tmux", ["-L", term!.socket, "list-clients"], { encoding: "utf8" }).stdout.trim() !== "", "a client of the test terminal");
    const sessionClients = () => spawnSync("tmux", ["-L", sb!.tmuxSocket, "list-clients"], { encoding: "utf8" }).stdout.trim();

    // Outside tmux (TMUX unset for the board): tmux attach takes the terminal; C-b d comes back to a redrawn board.
    await openBoard(term, sb, `env -u TMUX -u TMUX_PANE '${SPEX_BIN}' board`);
    await term.until("1 session");
    term.keys("Enter");
    await term.untilGone("spex board ·");
    await term.until("inside-the-session");
    term.keys("C-b", "d");
    await term.until(`back from ${s.id.slice(0, 8)}`);
    await term.until("spex board · repo");
    await quitAndCheckRestored(term, sb);

    // Inside tmux (the board's pane is in the terminal's server; the session on spex's own): a popup with a client of the session's server.
    term.type(`clear; '${SPEX_BIN}' board`);
    term.keys("Enter");
    await term.until("1 session");
    term.keys("Enter");
    await waitFor(() => sessionClients() !== "", "the popup's client on the session's server", 15000);
    spawnSync("tmux", ["-L", sb.tmuxSocket, "detach-client", "-s", s.tmuxSession]);
    await waitFor(() => sessionClients() === "", "the popup to close on detach", 15000);
    await term.until("(the board stays here)");
    term.keys("q");
  } finally {
    client.kill();
  }
}, 120_000);

test.skipIf(!bash)("the board makes a session (n: prompt, launcher), archives and restores it (a, A), stops and resumes it (x, r), and shows one group (g)", async () => {
  sb = sandbox();
  const first = startShellSession(sb, "bash", "echo first");
  waitIdle(sb, first);
  sb.spex(["group", "new", "api"]);
  term = boardTerminal(sb);
  await openBoard(term, sb);
  await term.until("1 session");

  // n: the prompt, then the launcher picked with → until it is the test's shell launcher.
  term.keys("n");
  await term.until("what should the agent do?");
  term.type("echo made-by-the-board");
  term.keys("Tab");
  const launcher = () => /launcher ‹ (\S+) ›/.exec(term!.screen())?.[1] ?? "";
  await term.until("› launcher ‹");
  for (let i = 0; i < 8 && launcher() !== "sh-under-test"; i++) {
    const was = launcher();
    term.keys("Right");
    await waitFor(() => launcher() !== was, "the next launcher");
  }
  await term.until("launcher ‹ sh-under-test ›");
  term.keys("Enter");
  await term.until(/created \w{8}/, 30000);
  const made = await waitFor(() => (JSON.parse(sb!.spex(["session", "ls", "--json"]).stdout) as { id: string; label: string }[]).find((r) => r.label.includes("made-by-the-board")), "the new session in ls", 20000);
  const m8 = made.id.slice(0, 8);
  await term.until("2 sessions");

  // Plain order: the new session is the last row.
  term.keys("o");
  await term.until("plain order");
  term.keys("End");
  await term.until(`── ${m8} `);

  // a: archive (asks), gone from the list; A shows it (archived); a restores it.
  term.keys("a");
  await term.until(`archive ${m8}`);
  term.keys("y");
  await term.until("1 session", 20000);
  term.keys("A");
  await term.until("(archived)");
  term.keys("End");
  await term.until(`── ${m8} `);
  term.keys("a");
  await term.until(`restored ${m8}`, 20000);
  term.keys("A");
  // The header said "2 sessions" with archived shown too: wait for the frame that hides them.
  await term.untilGone("+archived");
  await term.until("2 sessions");

  // x then r: stopped, then resumed.
  term.keys("End");
  await term.until(`── ${m8} `);
  term.keys("x");
  await term.until(`stop ${m8}`);
  term.keys("y");
  await waitFor(() => row(sb!, made.id)?.stopped === true, "the new session to stop", 20000, 100);
  term.keys("r");
  await term.until(`resumed ${m8}`, 30000);
  await waitFor(() => row(sb!, made.id)?.stopped === false, "the new session to run again", 20000, 100);

  // g: only the sessions filed in api (none), then every group again.
  term.keys("g");
  await term.until("show which group?");
  term.keys("j", "j"); // read as one "jj": the picker takes it a key at a time
  await term.until("› api");
  term.keys("Enter");
  await term.until("group api");
  await term.until("0 of 2");
  term.keys("g");
  await term.until("show which group?");
  await term.until("› api");
  term.keys("k");
  await term.until("› (no group)");
  term.keys("k");
  await term.until("› (every group)");
  term.keys("Enter");
  await term.until("2 sessions");
  await quitAndCheckRestored(term, sb);
}, 180_000);

test.skipIf(!bash)("a preview line of wide characters cut mid-character stays within the width: the header stays on the first line and no lone … wraps below", async () => {
  sb = sandbox();
  // 80 CJK characters (160 cells) on one line: at an even width the cut falls inside one of them.
  startShellSession(sb, "bash", "printf '\\346\\274\\242%.0s' $(seq 80); printf '\\n'");
  term = boardTerminal(sb, { columns: 100, rows: 24 });
  await openBoard(term, sb);
  await term.until("漢漢漢漢");
  const cells = (line: string) => stringWidth(line);
  for (const columns of [100, 64, 37]) {
    spawnSync("tmux", ["-L", term.socket, "resize-window", "-t", "term", "-x", String(columns), "-y", "24"]);
    // The frame drawn for the new width, the same twice in a row: not one half drawn. tmux keeps
    // the old frame on a narrower screen cut at the new width (so its bar runs exactly across
    // too), and a wide character at that cut is kept whole: only the board's own cut ends the
    // wide line with its "…".
    let last = "";
    const rows = await waitFor(() => {
      const s = term!.screen();
      const r = s.replace(/\n$/, "").split("\n");
      const drawn =
        s === last &&
        r.some((l) => l.startsWith("── ") && cells(l) === columns) &&
        r.some((l) => l.startsWith("漢漢") && l.trimEnd().endsWith("…")) &&
        r.some((l) => l.startsWith("↑↓ move"));
      last = s;
      return drawn ? r : undefined;
    }, `the board redrawn at ${columns} columns with the wide line cut`, 15000, 100);
    expect(rows[0]).toStartWith("spex board · repo");
    expect(rows.filter((l) => l.trim() === "…")).toEqual([]);
    expect(rows.filter((l) => cells(l) > columns)).toEqual([]);
  }
  await quitAndCheckRestored(term, sb);
});
