// Start-up figures (issue 22), each a ratio against a yardstick measured in
// the same run: the bare start (`--version`, `help`) and one completion call
// against a hello-world binary compiled here by the same Bun; the Node bundle
// against `node -e 0`; `ls --json` at 200 sessions against the start of the
// same verb with none; `live --json` at 200 panes against one raw tmux command
// list that lists every pane and captures all 200 screens (the floor any tool
// pays). Used by bench/startup.bench.ts (`make bench`, every figure) and
// bench/check.ts (`make bench-check`, the budgets with generous margins).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, SPEX_BIN, SPEX_CJS, type Sandbox, sandbox } from "../test/support/sandbox";
import { seedRecord } from "../test/support/records";
import { type PaneAt, PaneStage, lastLineOf, openPanes, waitForScreens } from "../test/support/panes";
import { type Probe, type Timing, median, timeOnce, tmuxCounter } from "./support";
import { projectStore } from "../lib/store";
import { baseArgs, captureAllArgs } from "../lib/tmux";
import { LIST_FORMAT } from "../lib/live/discover";
import { JIT_POLICY_AT_START } from "../scripts/jit-policy";

const BUN = join(REPO_ROOT, "node_modules", ".bin", "bun");

/** A hello-world compiled by the Bun that compiles spex, in .bench/ (kept between runs, rebuilt when Bun changes). */
export function helloBinary(): string {
  const dir = join(REPO_ROOT, ".bench", "hello");
  mkdirSync(dir, { recursive: true });
  const version = spawnSync(BUN, ["--version"], { encoding: "utf8" }).stdout.trim();
  const out = join(dir, `hello-${version}`);
  if (!existsSync(out)) {
    writeFileSync(join(dir, "hello.ts"), 'console.log("hello");\n');
    const r = spawnSync(BUN, ["build", "--compile", join(dir, "hello.ts"), "--outfile", out], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`compiling the hello-world failed: ${r.stderr}`);
  }
  return out;
}

/**
 * A floor binary: `lines` of TypeScript compiled the way bin/spex is
 * (bytecode, the JIT held back), in .bench/ under `name` (kept between runs,
 * rebuilt when Bun or the JIT policy changes).
 */
function floorBinary(name: string, lines: string[]): string {
  const dir = join(REPO_ROOT, ".bench", "hello");
  mkdirSync(dir, { recursive: true });
  const version = spawnSync(BUN, ["--version"], { encoding: "utf8" }).stdout.trim();
  const out = join(dir, `${name}-${version}-${JIT_POLICY_AT_START}`);
  if (!existsSync(out)) {
    const source = join(dir, `${name}.ts`);
    writeFileSync(source, [...lines, ""].join("\n"));
    const r = spawnSync(BUN, ["build", "--compile", "--bytecode", "--format=esm", `--compile-jit-policy=${JIT_POLICY_AT_START}`, source, "--outfile", out], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`compiling the ${name} floor failed: ${r.stderr}`);
  }
  return out;
}

/**
 * The floor under `ls --json`: a binary that lists a sessions folder, parses
 * each session.json and prints them all as indented JSON, nothing else (no
 * validation, side files, preview or row). What listing records costs any
 * tool on this machine.
 */
export function recordsFloorBinary(): string {
  return floorBinary("records-2", [
    'import { readdirSync, readFileSync } from "node:fs";',
    "const dir = process.argv[2];",
    "const rows = [];",
    "let ids = [];",
    "try { ids = readdirSync(dir); } catch {}",
    "for (const id of ids) {",
    "  try { rows.push(JSON.parse(readFileSync(`${dir}/${id}/session.json`, \"utf8\"))); } catch {}",
    "}",
    'process.stdout.write(JSON.stringify(rows, null, 2) + "\\n");',
  ]);
}

/**
 * The floor under completing a session name: a binary that lists a sessions
 * folder, reads each session.json, takes its short id and the name's line,
 * and prints them (nothing else: no store to find, no home to check, no
 * command table). What a Tab that offers names read from 20 or 200 records
 * costs any tool built by this Bun.
 */
export function namesFloorBinary(): string {
  return floorBinary("names-1", [
    'import { readdirSync, readFileSync } from "node:fs";',
    "const dir = process.argv[2];",
    "const words = [];",
    "let ids = [];",
    "try { ids = readdirSync(dir); } catch {}",
    "for (const id of ids) {",
    "  let text;",
    "  try { text = readFileSync(`${dir}/${id}/session.json`, \"utf8\"); } catch { continue; }",
    "  words.push(id.slice(0, 8));",
    "  const at = text.indexOf('\\n  \"name\": ');",
    "  if (at >= 0) words.push(text.slice(at + 11, text.indexOf(\"\\n\", at + 11)));",
    "}",
    'console.log(words.join("\\n"));',
  ]);
}

/**
 * Median wall and CPU time of each probe over `runs` rounds. Rounds
 * interleave the probes, so a burst of load on a shared machine hits
 * yardstick and figure alike; one warm-up round first (page cache).
 */
export function measure(probes: Probe[], runs: number): Map<string, Timing> {
  for (const p of probes) timeOnce(p);
  const times = new Map<string, Timing[]>(probes.map((p) => [p.name, []]));
  for (let i = 0; i < runs; i++) for (const p of probes) times.get(p.name)!.push(timeOnce(p));
  return new Map([...times].map(([name, xs]) => [name, { wall: median(xs.map((x) => x.wall)), cpu: median(xs.map((x) => x.cpu)) }]));
}

/** A project with `count` sessions (records only, as `ls` reads them). */
export function fleetOfRecords(count: number): Sandbox {
  const sb = sandbox();
  for (let i = 0; i < count; i++) seedRecord(sb.home, sb.repo, { prompt: `fix the flaky test number ${i} in the payments service`, name: `task-${i}`, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() });
  return sb;
}

export interface PaneFleet {
  sb: Sandbox;
  /** The environment `live` runs in: the fleet's server and an empty stand-in for the user's own. */
  env: Record<string, string>;
  /** What each pane shows last, by pane id. */
  expected: Map<string, string>;
  /** The floor: one tmux process that lists every pane and captures every screen. */
  floor: Probe;
  /** The command list live itself sends (its list format, a marker line after each screen), from outside spex. */
  marked: Probe;
  cleanup(): void;
}

/** `panes` panes on a tmux server of the sandbox's own, each showing a line no other shows. */
export async function fleetOfPanes(panes: number): Promise<PaneFleet> {
  const sb = sandbox();
  const standIn = `${sb.tmuxSocket}-user`;
  const kinds: Array<(i: number) => PaneAt & { line: string }> = [
    (i) => ({ text: `build ${i}\nstep ${i} of ${panes}:  100%`, line: `step ${i} of ${panes}: 100%` }),
    (i) => ({ command: "bash", text: `make\ndev@box:~/p${i}$ `, line: `dev@box:~/p${i}$` }),
    (i) => ({ command: "apt", text: `Install pkg-${i}? [Y/n]`, line: `Install pkg-${i}? [Y/n]` }),
  ];
  const shows = Array.from({ length: panes }, (_, i) => kinds[i % kinds.length]!(i));
  const ids = openPanes(new PaneStage(join(sb.dir, "stage")), sb.tmuxSocket, "bench", shows, { width: 120, height: 30 });
  const expected = new Map(ids.map((id, i) => [id, shows[i]!.line]));
  await waitForScreens(sb.tmuxSocket, expected);
  const list = ["list-panes", "-a", "-F", "#{session_name}\x1f#{window_index}\x1f#{pane_index}\x1f#{pane_id}\x1f#{pane_current_command}\x1f#{pane_current_path}"];
  const floorArgs = ["-u", "-L", sb.tmuxSocket, ...list, ...ids.flatMap((id) => [";", "capture-pane", "-p", "-J", "-t", id])];
  return {
    sb,
    env: { ...sb.env, SPEX_TMUX_SERVERS: `${sb.tmuxSocket},${standIn}` },
    expected,
    floor: { name: "raw tmux list + captures", cmd: "tmux", args: floorArgs, env: sb.env },
    marked: { name: "live's own tmux command list", cmd: "tmux", args: [...baseArgs(sb.tmuxSocket), ...captureAllArgs(["list-panes", "-a", "-F", LIST_FORMAT], "@@bench0000@@")], env: sb.env },
    cleanup() {
      spawnSync("tmux", ["-L", standIn, "kill-server"]);
      sb.cleanup();
    },
  };
}

/** How many rows of `live --json` show their pane's own last line. */
export function liveRowsRight(fleet: PaneFleet): number {
  const r = spawnSync(SPEX_BIN, ["session", "live", "--json"], { env: fleet.env, cwd: fleet.sb.dir, encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`live failed: ${r.stderr}`);
  const rows = JSON.parse(r.stdout) as Array<{ paneId: string; lastVisibleLine: string | null }>;
  return rows.filter((row) => fleet.expected.get(row.paneId) === row.lastVisibleLine).length;
}

/** The floor's own screens are right too (the yardstick is checked like the figure). */
export function floorRight(fleet: PaneFleet): number {
  const r = spawnSync(fleet.floor.cmd, fleet.floor.args, { env: fleet.floor.env, encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`the raw tmux list failed: ${r.stderr}`);
  return [...fleet.expected.values()].filter((line) => r.stdout.split("\n").some((l) => lastLineOf(l) === line)).length;
}

export const spex = (name: string, args: string[], sb: Sandbox, env: Record<string, string> = sb.env, cwd = sb.repo): Probe => ({ name, cmd: SPEX_BIN, args, cwd, env });
export const node = (name: string, args: string[], sb: Sandbox): Probe => ({ name, cmd: "node", args: [SPEX_CJS, ...args], cwd: sb.repo, env: sb.env });

export interface Figure {
  what: string;
  value: Timing;
  yardstick: Timing;
  yardstickName: string;
  /** The figure as its budget states it, from wall times (the figures). */
  ratio: number;
  ratioText: string;
  budget: number;
  budgetText: string;
  /** The same from CPU times, which a loaded machine inflates least: what `make bench-check` compares. */
  cpuRatio: number;
  cpuText: string;
  /** `make bench-check` fails past this (on cpuRatio): twice the budget, or twice today's figure where the budget is not met yet. */
  limit: number;
  /** Something besides speed that must hold (every screen right, the tmux processes). */
  broken?: string;
  note?: string;
}

export interface FigureOptions {
  runs: number;
  /** The 200-pane live figure (its fleet takes a few seconds to set up). */
  live?: boolean;
}

const times = (x: number) => `${x.toFixed(2)} ×`;

/** Every start-up figure of issue 22, measured in one run. */
export async function startupFigures(opts: FigureOptions): Promise<Figure[]> {
  const hello: Probe = { name: "hello-world binary", cmd: helloBinary(), args: [] };
  const nodeZero: Probe = { name: "node -e 0", cmd: "node", args: ["-e", "0"] };
  const recordsFloor = recordsFloorBinary();
  const namesFloor = namesFloorBinary();
  const empty = fleetOfRecords(0);
  const twenty = fleetOfRecords(20);
  const big = fleetOfRecords(200);
  const figures: Figure[] = [];
  try {
    const probes: Probe[] = [
      hello,
      nodeZero,
      spex("--version", ["--version"], empty),
      spex("help", ["help"], empty),
      spex("complete a verb", ["internal", "complete", "--", "session", "sh"], twenty),
      spex("complete a selector, 20 sessions", ["internal", "complete", "--", "session", "show", ""], twenty),
      spex("complete a selector, 200 sessions", ["internal", "complete", "--", "session", "show", ""], big),
      node("node bundle --version", ["--version"], empty),
      node("node bundle help", ["help"], empty),
      spex("ls --json, no sessions", ["session", "ls", "--json"], empty),
      spex("ls --json, 200 sessions", ["session", "ls", "--json"], big),
      { name: "records floor, none", cmd: recordsFloor, args: [projectStore(empty.repo, empty.home).sessionsDir] },
      { name: "records floor, 200", cmd: recordsFloor, args: [projectStore(big.repo, big.home).sessionsDir] },
      { name: "names floor, 20", cmd: namesFloor, args: [projectStore(twenty.repo, twenty.home).sessionsDir] },
      { name: "names floor, 200", cmd: namesFloor, args: [projectStore(big.repo, big.home).sessionsDir] },
    ];
    const t = measure(probes, opts.runs);
    const at = (name: string) => t.get(name)!;
    const against = (what: string, base: Probe, budget: number, limit = 2 * budget): Figure => {
      const ratio = at(what).wall / at(base.name).wall;
      const cpuRatio = at(what).cpu / at(base.name).cpu;
      return { what, value: at(what), yardstick: at(base.name), yardstickName: base.name, ratio, ratioText: times(ratio), budget, budgetText: `≤ ${budget} ×`, cpuRatio, cpuText: times(cpuRatio), limit };
    };
    // The limits (below) fail a clear regression only: loading the manifest or a command on --version, or the
    // session machinery on a verb's completion.
    figures.push(against("--version", hello, 1.3, VERSION_LIMIT), against("help", hello, 1.3, HELP_LIMIT), against("complete a verb", hello, 1.5, COMPLETE_VERB_LIMIT));
    // Beside each, what reading the same names costs a bare binary: the part of the ratio no completion avoids.
    const selector = (sessions: 20 | 200): Figure => {
      const floor = at(`names floor, ${sessions}`);
      const figure = against(`complete a selector, ${sessions} sessions`, hello, 1.5, COMPLETE_SELECTOR_LIMIT);
      return { ...figure, note: `the floor (a bare binary listing the folder and reading each record's name) ${times(floor.cpu / at(hello.name).cpu)} CPU, ${times(floor.wall / at(hello.name).wall)} wall` };
    };
    figures.push(selector(20), selector(200));
    figures.push(against("node bundle --version", nodeZero, 1.5, NODE_LIMIT), against("node bundle help", nodeZero, 1.5, NODE_LIMIT));
    // What listing 200 sessions adds to the same verb listing none, in hello-world starts: the budget's
    // 15 ms were 0.39 of one on the machine it was set on (a hello-world started in 38.7 ms there).
    const ls0 = at("ls --json, no sessions");
    const ls200 = at("ls --json, 200 sessions");
    const excess = (ls200.wall - ls0.wall) / at(hello.name).wall;
    const cpuExcess = (ls200.cpu - ls0.cpu) / at(hello.name).cpu;
    figures.push({
      what: "ls --json, 200 sessions",
      value: ls200,
      yardstick: ls0,
      yardstickName: "ls --json, no sessions",
      ratio: excess,
      ratioText: `+${(ls200.wall - ls0.wall).toFixed(1)} ms (${excess.toFixed(2)} hello-world)`,
      budget: 15 / 38.7,
      budgetText: "+15 ms (0.39 hello-world)",
      cpuRatio: cpuExcess,
      cpuText: `+${(ls200.cpu - ls0.cpu).toFixed(1)} ms (${cpuExcess.toFixed(2)} hello-world)`,
      limit: LS_LIMIT,
      note: `${times(ls200.wall / at("--version").wall)} --version; the floor (a bare binary listing, parsing and printing the same records) +${(at("records floor, 200").cpu - at("records floor, none").cpu).toFixed(1)} ms CPU, +${(at("records floor, 200").wall - at("records floor, none").wall).toFixed(1)} ms wall`,
    });
    if (opts.live) figures.push(await liveFigure(opts.runs));
  } finally {
    for (const sb of [empty, twenty, big]) sb.cleanup();
  }
  return figures;
}

// What bench-check fails past, in CPU time against the same-run yardstick:
// about twice the worst figure seen on the 2-core machine across runs at load
// 2 to 20 (2026-12-02), because a ratio over a 15 ms yardstick swings by half
// between runs. A clear regression (every command loaded on --version, the
// session machinery on completion: 3.5 × and more) still fails.
// The two budgets not met yet (bench/README.md says why) are guarded the same
// way, in hello-world starts: listing 200 sessions added 1.6-2.7, live past its
// own verb's start 2.1-2.8.
const LS_LIMIT = 5;
const LIVE_LIMIT = 6;
// Seen: --version 0.8-1.3 ×, help 1.2-1.9 ×, a verb's completion 0.9-1.7 ×, a selector's 1.4-3.0 ×, the Node bundle 1.6-2.1 ×.
const VERSION_LIMIT = 2.2;
const HELP_LIMIT = 3.5;
const COMPLETE_VERB_LIMIT = 3;
const COMPLETE_SELECTOR_LIMIT = 5;
const NODE_LIMIT = 4;

/**
 * `live --json` at 200 panes: what it costs past its start, in raw tmux
 * command lists. The start is the verb's own, measured as `ls`'s is: the same
 * `live --json` with no server to ask (the binary started, the live command
 * and everything it imports loaded, the argv parsed, the records read, `[]`
 * printed; no tmux process). It was `session live --help` until that came to
 * answer from the command manifest without loading the live command, which
 * left the verb's loading (about 15 ms here) in the figure; the ratios past
 * that help and past the bare `--version` are printed beside it. Each probe
 * is measured in the same interleaved rounds as the floor and the figure.
 */
async function liveFigure(runs: number): Promise<Figure> {
  const fleet = await fleetOfPanes(200);
  try {
    const live = spex("live --json, 200 panes", ["session", "live", "--json"], fleet.sb, fleet.env, fleet.sb.dir);
    const start = spex("live --json, no server", ["session", "live", "--json"], fleet.sb, noServer(fleet), fleet.sb.dir);
    const help = spex("session live --help", ["session", "live", "--help"], fleet.sb, fleet.env, fleet.sb.dir);
    const bare = spex("--version (live's fleet)", ["--version"], fleet.sb, fleet.env, fleet.sb.dir);
    const hello: Probe = { name: "hello-world binary", cmd: helloBinary(), args: [] };
    const t = measure([fleet.floor, fleet.marked, start, help, bare, hello, live], runs);
    const floor = t.get(fleet.floor.name)!;
    const value = t.get(live.name)!;
    const verbStart = t.get(start.name)!;
    const right = liveRowsRight(fleet);
    const floorOk = floorRight(fleet);
    const processes = tmuxProcesses(fleet);
    const ratio = (value.wall - verbStart.wall) / floor.wall;
    const pastBare = (value.wall - t.get(bare.name)!.wall) / floor.wall;
    const pastHelp = (value.wall - t.get(help.name)!.wall) / floor.wall;
    const cpuRatio = (value.cpu - verbStart.cpu) / t.get(hello.name)!.cpu;
    const broken = right < 200 ? `${right} of 200 rows right` : processes > 2 ? `${processes} tmux processes (at most 2)` : undefined;
    return {
      what: "live --json, 200 panes",
      value,
      yardstick: floor,
      yardstickName: "one tmux list-panes + 200 captures",
      ratio,
      ratioText: `start + ${times(ratio)} the floor`,
      budget: 1.5,
      budgetText: "start + 1.5 × the floor",
      cpuRatio,
      cpuText: `start + ${(value.cpu - verbStart.cpu).toFixed(1)} ms (${cpuRatio.toFixed(2)} hello-world)`,
      limit: LIVE_LIMIT,
      broken,
      note: `past \`session live --help\`: ${times(pastHelp)} the floor; past the bare --version: ${times(pastBare)}; tmux alone for live's own command list (a marker line after each screen): ${times(t.get(fleet.marked.name)!.wall / floor.wall)} the floor; ${right} of 200 rows right (the floor: ${floorOk}), ${processes} tmux processes`,
    };
  } finally {
    fleet.cleanup();
  }
}

/** The fleet's environment with no tmux server to ask (a socket name whose file is not there): live's own start. */
function noServer(fleet: PaneFleet): Record<string, string> {
  const env = { ...fleet.env, SPEX_TMUX_SERVERS: `${fleet.sb.tmuxSocket}-none` };
  const r = spawnSync(SPEX_BIN, ["session", "live", "--json"], { env, cwd: fleet.sb.dir, encoding: "utf8" });
  if (r.status !== 0 || r.stdout.trim() !== "[]") throw new Error(`live with no server should print [] and exit 0: ${r.status} ${r.stdout.slice(0, 200)} ${r.stderr}`);
  return env;
}

/** The tmux processes one `live --json` starts (a logging tmux first on PATH). */
function tmuxProcesses(fleet: PaneFleet): number {
  const counter = tmuxCounter(fleet.sb.dir);
  const r = spawnSync(SPEX_BIN, ["session", "live", "--json"], { env: { ...fleet.env, ...counter.env }, cwd: fleet.sb.dir, stdio: "ignore" });
  if (r.status !== 0) throw new Error("live failed while counting its tmux processes");
  return counter.count();
}
