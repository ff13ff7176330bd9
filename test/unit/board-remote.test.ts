// `spex board --all-machines` against a machine that answers like an attacker:
// its `session ls --json` is faked with SPEX_SSH_COMMAND (the real services,
// a real store, no sshd). A row whose id is not a session id never reaches
// the board, and the command the board prints for another machine's row is
// one shell word per value when a person pastes it.
import { afterEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { boardServices, elsewhere } from "../../lib/board/services";
import type { BoardSnapshot } from "../../lib/board/model/services";
import { sessionRow } from "../../lib/board/ui/test-rows";
import { projectStore } from "../../lib/store";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { type FakeMachine, machineAnswering } from "../support/fake-machine";

const HOSTILE_ID = "$(id>Q)-0000-4000-8000-000000000000";
let sb: Sandbox | undefined;
let machine: FakeMachine | undefined;
afterEach(() => {
  machine?.restore();
  sb?.cleanup();
  sb = undefined;
});

/** Paste `command` into sh in a fresh folder where `spex` only records its words: the words, and whether anything else ran. */
function paste(dir: string, command: string): { words: string[]; ran: boolean } {
  const script = `spex() { printf '%s\\n' "$@" > words; }\n${command}\n`;
  spawnSync("sh", ["-c", script], { cwd: dir, encoding: "utf8" });
  const words = existsSync(join(dir, "words")) ? readFileSync(join(dir, "words"), "utf8").split("\n").slice(0, -1) : [];
  return { words, ran: existsSync(join(dir, "Q")) };
}

/** The command a board_remote_session refusal names ("run it there: CMD (the board …)"). */
const named = (hint: string) => /run it there: (.*) \(the board/.exec(hint)?.[1];

describe("another machine's rows on the board", () => {
  test("a row whose id is not a session id is dropped with a warning; no key on the board names a command that runs it", async () => {
    sb = sandbox();
    const good = sessionRow({ label: "work over on m1" });
    machine = await machineAnswering(sb, "m1", [good, sessionRow({ id: HOSTILE_ID, label: "hostile" }), null, { ...good, id: 42 }]);

    const services = boardServices(projectStore(sb.repo, sb.home), sb.env, { allMachines: true });
    let last: BoardSnapshot | undefined;
    const unsubscribe = services.watch((s) => (last = s));
    try {
      const snap = await waitFor(() => last?.rows.some((r) => r.id === good.id) && last, "the other machine's row", 20000);
      // A whole row comes through as it was sent, with its machine.
      expect(snap.rows).toEqual([{ ...good, machine: "m1" }]);
      expect(snap.warnings).toContainEqual(expect.stringMatching(/^machine m1: 3 of its rows have no valid session id/));

      // A key on its good row names the command that acts there, as before.
      const there = await services.stop(good.id).catch((e) => e);
      expect(there.code).toBe("board_remote_session");
      expect(paste(sb.dir, named(there.hint)!).words).toEqual(["session", "stop", "--machine", "m1", good.id.slice(0, 8)]);

      // The hostile id is no row of that machine: nothing names a command with it in it.
      const refused = await services.stop(HOSTILE_ID).catch((e) => e);
      expect(refused.code).not.toBe("board_remote_session");
      expect(`${refused.message} ${refused.hint}`).not.toContain("run it there");
    } finally {
      unsubscribe();
    }
  }, 30000);

  test("the command a refusal names is one shell word per value, whatever the id holds", () => {
    sb = sandbox({ repo: false });
    const hint = elsewhere("m1", HOSTILE_ID, "archive --restore").hint;
    const pasted = paste(sb.dir, named(hint)!);
    expect(pasted.ran).toBe(false);
    expect(pasted.words).toEqual(["session", "archive", "--restore", "--machine", "m1", HOSTILE_ID.slice(0, 8)]);
  });
});
