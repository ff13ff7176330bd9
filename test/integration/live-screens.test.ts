// The classifier's fixture screens as real panes, all in one tmux server: the
// real agent CLIs' screens (test/fixtures/screens) and the crafted ones
// (test/fixtures/live), each shown by a program under the name its agent runs
// as. `live` must find the harness, classify each pane as its fixture says,
// and report its own last line: the unit tests prove the rules on text, this
// proves them on what tmux hands back from a crowded server.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Lifecycle } from "../../lib/record";
import { type Sandbox, sandbox } from "../support/sandbox";
import { seedRecord } from "../support/records";
import { type PaneShow, PaneStage, endPanes, lastLineOf, openPanes, waitForScreens } from "../support/panes";

const FIXTURES = join(__dirname, "..", "fixtures");

interface Shown {
  file: string;
  paneId: string;
  status: string;
  /** The deciding rule, where the fixture names it. */
  rule?: string;
  line: string | null;
}

interface Crafted {
  file: string;
  harness: string;
  command: string;
  governed: Lifecycle | null;
  paneDead: boolean;
  expect: { status: string; rule: string };
}

// How each agent shows up when its CLI runs under `node`: the package path on its command line.
const PACKAGE: Record<string, string> = { codex: "@openai/codex/bin/codex.js", gemini: "@google/gemini-cli/dist/index.js", claude: "@anthropic-ai/claude-code/cli.js" };

let sb: Sandbox;
const shown: Shown[] = [];
let rows: any[] = [];

beforeAll(async () => {
  sb = sandbox();
  const stage = new PaneStage(join(sb.dir, "stage"));
  const socket = sb.tmuxSocket;
  const size = { width: 400, height: 60 };
  const show = (dir: string, file: string, command: string, harness: string): PaneShow => ({
    text: readFileSync(join(FIXTURES, dir, file), "utf8"),
    command,
    argv: command === "node" && PACKAGE[harness] ? [join(sb.dir, "node_modules", PACKAGE[harness]!)] : [],
  });

  // The real CLIs' screens, one window each in one session.
  const real: Array<{ file: string; harness: string; status: string }> = JSON.parse(readFileSync(join(FIXTURES, "screens", "fixtures.json"), "utf8"));
  const realIds = openPanes(stage, socket, "real", real.map((f) => show("screens", f.file, f.harness, f.harness)), size);
  real.forEach((f, i) => shown.push({ file: `screens/${f.file}`, paneId: realIds[i]!, status: f.status, line: lastLineOf(readFileSync(join(FIXTURES, "screens", f.file), "utf8")) }));

  // The crafted screens: ungoverned ones in one session, each governed one in a session of its own with its record.
  const crafted: Crafted[] = JSON.parse(readFileSync(join(FIXTURES, "live", "fixtures.json"), "utf8"));
  const plain = crafted.filter((f) => !f.governed);
  const plainIds = openPanes(stage, socket, "crafted", plain.map((f) => show("live", f.file, f.command, f.harness)), size);
  plain.forEach((f, i) => shown.push({ file: `live/${f.file}`, paneId: plainIds[i]!, status: f.expect.status, rule: f.expect.rule, line: lastLineOf(readFileSync(join(FIXTURES, "live", f.file), "utf8")) }));
  crafted.filter((f) => f.governed).forEach((f, i) => {
    const name = `governed-${i}`;
    const worktree = join(sb.repo, ".worktrees", name);
    mkdirSync(worktree, { recursive: true });
    seedRecord(sb.home, sb.repo, { worktree_path: worktree, tmux_socket: socket, tmux_session: name, status: f.governed!, harness: f.harness, launcher: f.harness });
    const [paneId] = openPanes(stage, socket, name, [show("live", f.file, f.command, f.harness)], { cwd: worktree, ...size });
    shown.push({ file: `live/${f.file}`, paneId: paneId!, status: f.expect.status, rule: f.expect.rule, line: lastLineOf(readFileSync(join(FIXTURES, "live", f.file), "utf8")) });
  });

  await waitForScreens(socket, new Map(shown.map((s) => [s.paneId, s.line!])));
  await endPanes(socket, crafted.filter((f) => f.paneDead).map((f) => shown.find((s) => s.file === `live/${f.file}`)!.paneId));
  const r = sb.spex(["session", "live", "--json"], { env: { SPEX_TMUX_SERVERS: socket } });
  if (r.code !== 0) throw new Error(`live failed: ${r.stderr}`);
  rows = JSON.parse(r.stdout);
});

afterAll(() => sb?.cleanup());

test("every fixture screen is a pane of one server, and live lists each once", () => {
  expect(shown.length).toBeGreaterThanOrEqual(50);
  expect(rows.map((r) => r.paneId).sort()).toEqual(shown.map((s) => s.paneId).sort());
});

test("each pane is classified as its fixture says, by the rule it names, with its own last line", () => {
  const got = shown.map((s) => {
    const row = rows.find((r) => r.paneId === s.paneId);
    return { file: s.file, status: row?.status, rule: s.rule === undefined ? undefined : row?.statusRule, line: row?.lastVisibleLine };
  });
  // One comparison over every pane: a failure lists every wrong one.
  expect(got).toEqual(shown.map((s) => ({ file: s.file, status: s.status, rule: s.rule, line: s.line })));
});
