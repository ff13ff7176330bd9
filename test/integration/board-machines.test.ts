// `spex board --all-machines` in a real terminal, with a second machine that
// is a real sshd (test/support/ssh-machines.ts): its sessions are listed
// beside this machine's under a MACHINE column, a session that appears there
// shows up without a key, and a key that would act on another machine's
// session says the command that does it there (the board acts here only).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { seedRecord } from "../support/records";
import { type Sandbox, SPEX_BIN, sandbox } from "../support/sandbox";
import { type SshFleet, type SshMachine, sshFleet, sshUnavailable } from "../support/ssh-machines";
import { type BoardTerminal, boardTerminal } from "../support/board-terminal";

const unavailable = sshUnavailable();

describe.skipIf(unavailable !== undefined)("the board over several machines", () => {
  let sb: Sandbox;
  let fleet: SshFleet;
  let m: SshMachine;
  let term: BoardTerminal | undefined;

  beforeAll(async () => {
    sb = sandbox();
    fleet = await sshFleet(sb, ["m1"]);
    m = fleet.machines[0]!;
    Object.assign(sb.env, { SPEX_SSH_COMMAND: fleet.sshCommand, SPEX_MACHINE: "here" });
    expect(sb.spex(["machine", "add", "m1", "m1", "--repo", m.repo]).code).toBe(0);
    expect(sb.spex(["machine", "install", "m1"]).code).toBe(0);
  });
  afterAll(async () => {
    term?.kill();
    await fleet?.cleanup();
    sb?.cleanup();
  });

  test("--all-machines: a MACHINE column, the other machine's sessions listed and kept current, its keys name the command to run there", async () => {
    const mine = seedRecord(sb.home, sb.repo, { prompt: "work on this machine", status: "idle" });
    const theirs = seedRecord(m.spexHome, m.repo, { prompt: "work over on m1", status: "asking", note: "which port?" });
    // (Seeded records have no agent alive: ls, here and there, says offline; the note still travels.)
    term = boardTerminal(sb, { columns: 120, rows: 30 });
    term.type(`'${SPEX_BIN}' board --all-machines; echo "board exited $?"`);
    term.keys("Enter");
    const screen = await term.until("work over on m1", 30000);
    expect(screen).toMatch(/ID\s+STATUS\s+MACHINE\s+LABEL/);
    const line = (id: string, s: string) => s.split("\n").find((l) => l.includes(id.slice(0, 8))) ?? "";
    expect(line(mine.session_id, screen)).toMatch(/\bhere\s+work on this machine/);
    expect(line(theirs.session_id, screen)).toMatch(/\bm1\s+work over on m1.*which port\?/);

    // A session made there later shows up on its own.
    const later = seedRecord(m.spexHome, m.repo, { prompt: "a later one on m1", status: "idle" });
    expect(line(later.session_id, await term.until("a later one on m1", 30000))).toMatch(/\bm1\b/);

    // Filtered down to m1's first session (selected), stop it: the board says where to do that.
    term.keys("/");
    term.type("work over");
    await term.until("1 of 3");
    term.keys("Enter");
    await term.untilGone("Enter keeps it");
    term.keys("x");
    await term.until("y/N");
    term.keys("y");
    const refused = await term.until(/lives on machine m1/);
    expect(refused).toContain(`spex session stop --machine m1 ${theirs.session_id.slice(0, 8)}`);

    // Without the flag the board is this machine's alone: no MACHINE column, no m1 row.
    term.keys("q");
    await term.until("board exited 0", 30000);
    term.type(`clear; '${SPEX_BIN}' board`);
    term.keys("Enter");
    const alone = await term.until("work on this machine", 30000);
    expect(alone).not.toContain("MACHINE");
    expect(alone).not.toContain("work over on m1");
    term.keys("q");
    await term.untilGone("spex board ·");
  }, 120000);
});
