// Start-up figures (issue 22), each a ratio against a yardstick measured in
// the same run: the bare start (`--version`, `help`) and one completion call
// against a hello-world binary compiled here by the same Bun; the Node bundle
// against `node -e 0`; `ls --json` at 200 sessions against the start of the
// same verb with none; `live --json` at 200 panes against one raw tmux command
// list that lists every pane and captures all 200 screens (the floor any tool
// pays). Used by bench/startup.bench.ts (`make bench`, every figure) and
// bench/check.ts (`make bench-check`, the budgets with generous margins).
import { spawnSync } from "node:child_process";
import { SPEX_BIN, SPEX_CJS, type Sandbox } from "../test/support/sandbox";
import { type Probe, type Timing, median, timeOnce, tmuxCounter } from "./support";
import { projectStore } from "../lib/store";
import { type PaneFleet, fleetOfPanes, fleetOfRecords, floorRight, liveRowsRight } from "./fleets";
import { helloBinary, namesFloorBinary, recordsFloorBinary } from "./yardsticks";

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

/**
 * The environment a Tab starts spex in (shell/spex.bash and spex.fish set it on
 * that one command): no JIT and no heap warm-up thread, which a run this short
 * pays for in CPU only. A completion figure is what a Tab costs, so it is
 * measured with these; test/integration/shell.test.ts checks the scripts set them.
 */
export const TAB_ENV = { BUN_JSC_useWarmUpMarkedBlocks: "0", BUN_JSC_useJIT: "0" } as const;

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
      spex("complete a verb", ["internal", "complete", "--", "session", "sh"], twenty, { ...twenty.env, ...TAB_ENV }),
      spex("complete a selector, 20 sessions", ["internal", "complete", "--", "session", "show", ""], twenty, { ...twenty.env, ...TAB_ENV }),
      spex("complete a selector, 200 sessions", ["internal", "complete", "--", "session", "show", ""], big, { ...big.env, ...TAB_ENV }),
      // The same call without the Tab's environment (a person typing it, or a shell of their own making).
      spex("complete a selector bare, 20 sessions", ["internal", "complete", "--", "session", "show", ""], twenty),
      spex("complete a selector bare, 200 sessions", ["internal", "complete", "--", "session", "show", ""], big),
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
      const bare = at(`complete a selector bare, ${sessions} sessions`);
      return {
        ...figure,
        note: `the floor (a bare binary listing the folder and reading each record's name) ${times(floor.cpu / at(hello.name).cpu)} CPU, ${times(floor.wall / at(hello.name).wall)} wall; without the Tab's environment ${times(bare.cpu / at(hello.name).cpu)} CPU, ${times(bare.wall / at(hello.name).wall)} wall`,
      };
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
