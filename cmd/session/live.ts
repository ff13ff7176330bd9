import { Option } from "clipanion";
import * as t from "typanion";
import { SpexCommand } from "../base";
import { formatTable, printable, writeJson } from "../../lib/cli/output";
import { terminalOf } from "../../lib/cli/terminal";
import { SpexError } from "../../lib/errors";
import { type LiveFilters, type LiveObservation, type LiveRow, liveConfig, machineName, observeLive, parseStatuses, unrecordedStalls, watchLive } from "../../lib/live";
// Types only: the machines code (ssh, sockets) loads when --machine or --all-machines asks for it.
import type { FleetError, FleetTarget } from "../../lib/machines";

/**
 * The pane table; with several machines a MACHINE column leads. On a terminal
 * (`width`) it fits: a row that wrapped would push `--watch`'s header off the
 * screen. The last line goes first, then the target and project are cut;
 * never the status or the session id.
 */
export function liveTable(rows: LiveRow[], withMachine = false, width?: number): string {
  if (rows.length === 0) return "no panes\n";
  const headers = [...(withMachine ? ["MACHINE"] : []), "TARGET", "SERVER", "STATUS", "PROJECT", "COMMAND", "SPEX", "LAST LINE"];
  const at = (h: string) => headers.indexOf(h);
  const cells = (r: LiveRow) => [...(withMachine ? [r.machine] : []), r.target, r.socket || "default", r.status, r.projectSlug, r.command, r.sessionId ? r.sessionId.slice(0, 8) : "", r.lastVisibleLine ?? ""];
  const shrink = [
    { column: at("LAST LINE"), min: 24 },
    { column: at("TARGET"), min: 24 },
    { column: at("PROJECT"), min: 12 },
    { column: at("LAST LINE"), min: 0 },
    { column: at("TARGET"), min: 12 },
    { column: at("PROJECT"), min: 0 },
    { column: at("SERVER"), min: 8 },
    { column: at("COMMAND"), min: 8 },
    // A very narrow terminal: what is left is the target, its status and its session.
    { column: at("SERVER"), min: 0 },
    { column: at("COMMAND"), min: 0 },
  ];
  return formatTable(headers, rows.map(cells), { width, shrink });
}

/** Clear and redraw for --watch: a terminal that can move its cursor (TERM=dumb cannot: it would print the escapes). */
function canRedraw(out: NodeJS.WritableStream, env: Record<string, string | undefined>): boolean {
  return (out as NodeJS.WriteStream).isTTY === true && env.TERM !== "dumb";
}

/** The machines that did not answer, one line each (stderr). */
export function fleetWarnings(errors: FleetError[]): string {
  return errors.map((e) => printable(`spex: warning: ${e.error.message} [${e.error.code}]`) + "\n").join("");
}

export class SessionLiveCommand extends SpexCommand {
  static paths = [["session", "live"]];
  static usage = SpexCommand.Usage({
    category: "Fleet",
    description: "list every live tmux pane with its status (active, idle, needs_attention, dead)",
    details: `
      Scans the spex tmux server, your default tmux server, \`tmux.sockets\` from spexcode.json and every socket a running spex session was put on, with one \`list-panes\` and one batched capture per server. A spexcode.json that cannot be read is reported on stderr and the defaults are used: live answers for the whole machine wherever it is run. Panes of spex sessions take the status their hooks declared (a visible approval dialog still wins); other panes are classified from their screen by the rules of the agent CLI running in them.

      \`--open-only\` keeps panes of open spex sessions, \`--project\` panes whose project path or slug contains the text (a path is resolved to its main checkout first), \`--machine\` this machine by name (case ignored); all apply before any capture. \`--status\` applies after classification. \`--once\` (the default) observes once; \`--watch\` repeats every \`--interval\` seconds, one JSON array per line with \`--json\`. On a terminal the table fits its width (the last line is cut first, never the status or session); piped output is never cut.

      \`lastVisibleLine\` and \`title\` are untrusted display text: never execute them.
    `,
    examples: [
      ["Every pane, as a table", "spex session live"],
      ["Panes of open spex sessions that need a person, as JSON", "spex session live --open-only --status needs_attention --json"],
      ["Keep watching, every 5 seconds", "spex session live --watch --interval 5"],
    ],
  });

  openOnly = Option.Boolean("--open-only", false, { description: "Only panes of open (not archived) spex sessions" });
  project = Option.String("-p,--project", { description: "Only panes whose project path or slug contains this text (or of this path's project)" });
  // `-m` is --message (merge, as in git); here it once meant --machine: still read, with a warning, so old scripts run.
  machineShort = Option.String("-m", { hidden: true });
  machine = Option.String("--machine", { description: "Only panes of these machines (comma-separated, case ignored): this one by its short host name, others from `spex machine ls`, asked over ssh" });
  allMachines = Option.Boolean("--all-machines", false, { description: "This machine and every machine of `spex machine ls`, asked in parallel" });
  status = Option.String("--status", { description: "Comma-separated statuses to keep: active, idle, needs_attention, dead" });
  once = Option.Boolean("--once", false, { description: "Observe once (the default)" });
  watch = Option.Boolean("--watch", false, { description: "Observe repeatedly until interrupted" });
  interval = Option.String("--interval", { description: "Seconds between observations with --watch (default 2)", validator: t.cascade(t.isNumber(), [t.isAtLeast(0.1)]) });
  count = Option.String("--count", { description: "Stop --watch after this many observations", validator: t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(1)]) });

  async execute(): Promise<number> {
    if (this.machineShort !== undefined) {
      this.context.stderr.write("spex: warning: -m is short for --message (spex session merge, as in git), no longer for --machine; write --machine here\n");
      this.machine ??= this.machineShort;
    }
    if (this.once && this.watch) throw new SpexError("usage", "--once and --watch exclude each other", { hint: "pick one", exitCode: 2 });
    const filters: LiveFilters = { openOnly: this.openOnly, project: this.project, machine: this.machine, statuses: parseStatuses(this.status) };
    const config = liveConfig();
    if (config.warning) this.context.stderr.write(`spex: warning: ${config.warning}\n`);
    const opts = { config };
    const out = this.context.stdout;
    if (this.allMachines || this.machine !== undefined) {
      const { fleetTargets, readMachines } = await import("../../lib/machines");
      const targets = fleetTargets({ machine: this.machine, allMachines: this.allMachines }, machineName(), readMachines());
      if (targets) return this.fleet(targets, { ...filters, machine: undefined }, async () => (await observeLive({ ...filters, machine: undefined }, opts)).rows);
    }
    // A stall seen on a session's pane is recorded on the session (and notified) by whoever sees it first;
    // the recording code loads only when a row shows one its record lacks.
    const recordObservedStalls = async (obs: LiveObservation) => {
      if (unrecordedStalls(obs).length > 0) await (await import("../../lib/attention/stall-probe")).recordObservedStalls(obs);
    };
    // Re-read each time: a terminal resized under --watch gets tables of its new width.
    const width = () => terminalOf(out, this.context.env).width;
    if (!this.watch) {
      const obs = await observeLive(filters, opts);
      await recordObservedStalls(obs);
      if (this.json) writeJson(out, obs.rows);
      else out.write(liveTable(obs.rows, false, width()));
      return 0;
    }
    const redraw = !this.json && canRedraw(out, this.context.env);
    await watchLive(filters, { intervalMs: (this.interval ?? 2) * 1000, count: this.count }, (obs) => {
      void recordObservedStalls(obs);
      if (this.json) out.write(JSON.stringify(obs.rows) + "\n");
      else out.write(`${redraw ? "\x1b[H\x1b[2J" : ""}observed ${obs.observedAt}, ${obs.rows.length} panes\n${liveTable(obs.rows, false, width())}\n`);
    }, opts);
    return 0;
  }

  /** Several machines: each asked in parallel, rows marked with their machine, one error entry per machine that did not answer. */
  private async fleet(targets: FleetTarget[], filters: LiveFilters, local: () => Promise<LiveRow[]>): Promise<number> {
    const { observeFleet, repeatEvery } = await import("../../lib/machines");
    const out = this.context.stdout;
    const redraw = this.watch && !this.json && canRedraw(out, this.context.env);
    await repeatEvery({ intervalMs: (this.interval ?? 2) * 1000, count: this.watch ? this.count : 1 }, async () => {
      const fleet = await observeFleet(targets, filters, local);
      if (this.json) out.write(this.watch ? JSON.stringify(fleet.entries) + "\n" : JSON.stringify(fleet.entries, null, 2) + "\n");
      else {
        if (this.watch) out.write(`${redraw ? "\x1b[H\x1b[2J" : ""}observed ${new Date().toISOString()}, ${fleet.rows.length} panes on ${targets.length} machines\n`);
        out.write(liveTable(fleet.rows, true, terminalOf(out, this.context.env).width));
        this.context.stderr.write(fleetWarnings(fleet.errors));
      }
    });
    return 0;
  }
}
