// The whole board over the real services (lib/board/services) and a real
// store of seeded records: the rows are what `ls` lists.
import "../test-env";
import { afterEach, describe, expect, test } from "bun:test";
import { render } from "ink-testing-library";
import { boardServices } from "../../services";
import { projectStore } from "../../../store";
import { seedRecord } from "../../../../test/support/records";
import { type Sandbox, sandbox } from "../../../../test/support/sandbox";
import { KEY, frameWith, frameWithout, listening } from "../test-keys";
import { waitFor } from "../../../../test/support/sandbox";
import { App } from "./App";

let sb: Sandbox | undefined;
afterEach(() => sb?.cleanup());

function board() {
  sb = sandbox();
  const asking = seedRecord(sb.home, sb.repo, { prompt: "pick a database", status: "asking", note: "postgres or sqlite?" });
  const idle = seedRecord(sb.home, sb.repo, { prompt: "write the docs", status: "idle" });
  const archived = seedRecord(sb.home, sb.repo, { prompt: "old work", status: "idle", archived: true });
  const services = boardServices(projectStore(sb.repo, sb.home), sb.env);
  const app = render(<App services={services} color={false} suspend={(run) => run()} size={{ columns: 100, rows: 24 }} now={Date.now()} />);
  return { app, asking, idle, archived };
}

describe("App", () => {
  test("lists what ls lists, archived hidden until A; the preview follows the selection", async () => {
    const { app, asking, idle, archived } = board();
    await listening(app.stdin);
    const frame = await frameWith(app.lastFrame, asking.session_id.slice(0, 8));
    // No agent runs for a seeded record: ls says offline, and so does the board.
    expect(frame).toContain("2 offline");
    expect(frame).toContain("postgres or sqlite?");
    expect(frame).not.toContain(archived.session_id.slice(0, 8));
    expect(frame).toContain(`── ${asking.session_id.slice(0, 8)} pick a database`);
    app.stdin.write("j");
    await frameWith(app.lastFrame, `── ${idle.session_id.slice(0, 8)} write the docs`);
    app.stdin.write("A");
    await frameWith(app.lastFrame, "(archived)");
    app.stdin.write("o");
    await frameWith(app.lastFrame, "plain order");
  }, 30000);

  test("/ filters by words, Esc clears; ? shows help; a stop answered N changes nothing", async () => {
    const { app, asking, idle } = board();
    await listening(app.stdin);
    await frameWith(app.lastFrame, idle.session_id.slice(0, 8));
    app.stdin.write("/");
    app.stdin.write("docs");
    const filtered = await frameWith(app.lastFrame, "1 of 2");
    expect(filtered).not.toContain(asking.session_id.slice(0, 8));
    app.stdin.write(KEY.enter);
    app.stdin.write(KEY.escape);
    await frameWith(app.lastFrame, "2 sessions");
    // Backspace held down comes in one read with what was typed before it: it erases, it is no text.
    app.stdin.write("/");
    app.stdin.write(`docz${KEY.backspace}${KEY.backspace}${KEY.backspace}${KEY.backspace}write`);
    await frameWith(app.lastFrame, "/write█ · 1 of 2");
    app.stdin.write(KEY.escape);
    await frameWith(app.lastFrame, "2 sessions");
    // Words and Enter typed faster than the board reads: the Enter keeps the filter and the list has the keys again.
    app.stdin.write("/");
    app.stdin.write("docs\r");
    await frameWith(app.lastFrame, "/docs · 1 of 2");
    app.stdin.write(KEY.escape);
    await frameWith(app.lastFrame, "2 sessions");
    app.stdin.write("?");
    await frameWith(app.lastFrame, "keys (any key closes this)");
    app.stdin.write(" ");
    await frameWithout(app.lastFrame, "keys (any key closes this)");
    app.stdin.write("x");
    await frameWith(app.lastFrame, "? [y/N]");
    app.stdin.write("n");
    await frameWith(app.lastFrame, "nothing changed");
  }, 30000);

  test("R resumes every session whose agent died, after asking; one spex stopped is not counted; a refusal is shown (issue 27)", async () => {
    sb = sandbox();
    // An agent of an earlier boot (its pid names nobody now), and one spex stopped.
    const died = seedRecord(sb.home, sb.repo, { prompt: "port the parser", status: "active", agent_pid: "999999", agent_start: "1", agent_boot: "a-boot-before-this-one" });
    seedRecord(sb.home, sb.repo, { prompt: "write the docs", status: "idle", stopped: true, stopped_by: "spex" });
    const services = boardServices(projectStore(sb.repo, sb.home), sb.env);
    const app = render(<App services={services} color={false} suspend={(run) => run()} size={{ columns: 120, rows: 24 }} now={Date.now()} />);
    await listening(app.stdin);
    const frame = await frameWith(app.lastFrame, "machine_restarted");
    expect(frame).toContain("killed");
    app.stdin.write("R");
    await frameWith(app.lastFrame, "resume 1 session whose agent died? [y/N]");
    app.stdin.write("y");
    // Never launched by spex (a seeded record): no conversation to go back to, and the board says so.
    const done = await frameWith(app.lastFrame, "resume --all: launched 0, queued 0, failed 1");
    expect(done).toContain(`(${died.session_id.slice(0, 8)}: resume_unavailable;`);
  }, 30000);

  test("q quits", async () => {
    const { app } = board();
    await listening(app.stdin);
    await frameWith(app.lastFrame, "2 sessions");
    app.stdin.write("q");
    // Ink stops reading keys once the board has ended.
    await waitFor(() => app.stdin.listenerCount("readable") === 0, "the board to end");
  });

  test("Ctrl-C quits from the send editor too: it is not swallowed, and what is typed next is not sent", async () => {
    const { app } = board();
    await listening(app.stdin);
    await frameWith(app.lastFrame, "2 sessions");
    app.stdin.write("s");
    await frameWith(app.lastFrame, "send to");
    app.stdin.write("half a messa");
    await frameWith(app.lastFrame, "half a messa█");
    app.stdin.write(KEY.ctrlC);
    await waitFor(() => app.stdin.listenerCount("readable") === 0, "the board to end");
  });

  test("Ctrl-C quits while the filter is being typed", async () => {
    const { app } = board();
    await listening(app.stdin);
    await frameWith(app.lastFrame, "2 sessions");
    app.stdin.write("/");
    app.stdin.write("doc");
    await frameWith(app.lastFrame, "/doc█");
    app.stdin.write(KEY.ctrlC);
    await waitFor(() => app.stdin.listenerCount("readable") === 0, "the board to end");
  });
});
