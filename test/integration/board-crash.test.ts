// The board's terminal manners when it does not end by q: a hang-up (SIGHUP
// sent to it, or its terminal closed under it) and a crash (an error thrown
// where nothing catches it, in a key handler or while rendering; the seams of
// lib/board/ui/faults.ts). Each time the terminal is handed back as found: the
// main screen with the shell's lines, the cursor shown, the tty settings as
// before (stty -g), and for a crash its error printed there, where it can be
// read. (A SIGKILL cannot be answered: docs/board.md says what to type then.)
import { afterEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { seedRecord } from "../support/records";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { type BoardTerminal, boardPid, boardTerminal, expectRestored, openBoard } from "../support/board-terminal";

let sb: Sandbox | undefined;
let term: BoardTerminal | undefined;
afterEach(() => {
  term?.kill();
  sb?.cleanup();
  term = undefined;
  sb = undefined;
});

/** A terminal running the board over one session, a line of the shell's above it and the tty settings saved. */
async function boardOpen(env: Record<string, string> = {}): Promise<{ sb: Sandbox; term: BoardTerminal }> {
  sb = sandbox();
  seedRecord(sb.home, sb.repo, { prompt: "a session to look at", status: "idle" });
  term = boardTerminal(sb, { env });
  await openBoard(term, sb);
  await term.until("1 session");
  // On the alternate screen, the cursor hidden: what is to be undone.
  expect(term.format("#{alternate_on} #{cursor_flag}")).toBe("1 0");
  return { sb, term };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test("SIGHUP: the board ends (129) and the terminal is as it was", async () => {
  const { sb: s, term: t } = await boardOpen();
  process.kill(boardPid(t), "SIGHUP");
  await expectRestored(t, s, 129);
});

test("the terminal closed under the board (its pane killed): the board ends instead of running on with nowhere to draw", async () => {
  const { term: t } = await boardOpen();
  const pid = boardPid(t);
  spawnSync("tmux", ["-L", t.socket, "kill-pane", "-t", "term"]);
  await waitFor(() => !alive(pid), "the board's process to end once its terminal is gone", 15000, 50);
});

test("an error thrown in a key handler: the terminal is restored, then the error is printed on the main screen (exit 70)", async () => {
  const { sb: s, term: t } = await boardOpen({ SPEX_TEST_THROW_AT: "board-key" });
  t.keys("j");
  const after = await expectRestored(t, s, 70);
  expect(after).toContain("thrown in the key handler");
});

test("an error thrown while rendering: the terminal is restored, then the error is printed on the main screen (exit 70)", async () => {
  const { sb: s, term: t } = await boardOpen({ SPEX_TEST_THROW_AT: "board-render" });
  // A key that draws something new (the help), so a render follows it (j over one session changes nothing).
  t.keys("?");
  const after = await expectRestored(t, s, 70);
  expect(after).toContain("thrown while rendering");
});
