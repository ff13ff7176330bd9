import { Option } from "clipanion";
import * as t from "typanion";
import { SpexCommand } from "../base";
import { formatTable, printable, writeJson } from "../../lib/cli/output";
import { SpexError } from "../../lib/errors";
import { liveConfig, machineName, parseStatuses } from "../../lib/live";
import { BULK_ACTIONS, type BulkEnvelope, isBulkAction, isMutating, runBulk } from "../../lib/live/bulk";
import { fleetTargets, readMachines, runFleetBulk, unanswered } from "../../lib/machines";
import { fleetWarnings } from "./live";

const isLimit = t.cascade(t.isNumber(), [t.isAtLeast(0)]);
const isLimitOrNone = t.isOneOf([t.isLiteral("none"), isLimit]);

function bulkReport(env: BulkEnvelope, withMachine = false): string {
  const s = env.summary;
  let text = `bulk ${env.action}: ${s.selected} selected of ${s.totalPanes} panes; planned ${s.planned}, queued ${s.queued}, skipped ${s.skipped}, refused ${s.refused}`;
  if (s.queued > 0 && env.executionEnabled) text += `; succeeded ${s.succeeded}, failed ${s.failed}`;
  text += "\n";
  for (const r of env.guard.reasons) text += `guard: ${r}\n`;
  if (env.entries.length === 0) return text;
  if (env.action === "capture") {
    for (const e of env.entries) text += `\n== ${e.target} (${e.status}) ==\n${printable(e.capture ?? "").trimEnd()}\n`;
    return text;
  }
  const rows = env.entries.map((e) => [
    ...(withMachine ? [e.machine] : []),
    e.target,
    e.status,
    e.decision,
    env.action === "doctor" ? (e.findings ?? []).join("; ") || "ok" : e.reason,
    e.outcome ? `${e.outcome.state}: ${e.outcome.message}` : "",
  ]);
  return text + formatTable([...(withMachine ? ["MACHINE"] : []), "TARGET", "STATUS", "DECISION", env.action === "doctor" ? "FINDINGS" : "REASON", "OUTCOME"], rows);
}

export class SessionBulkCommand extends SpexCommand {
  static paths = [["session", "bulk"]];
  static usage = SpexCommand.Usage({
    category: "Fleet",
    description: "check or act on many live panes at once (status, capture, doctor, ensure, start, stop, restart)",
    details: `
      Selects panes like \`spex session live\` and answers one \`sessions.bulk.v1\` envelope. \`status\`, \`capture\` and \`doctor\` are read-only and stay usable while the guard is exceeded (its reasons are reported). \`ensure\`, \`start\`, \`stop\` and \`restart\` act only on spex sessions, through the same code as \`spex session stop\` and \`spex session resume\`: they need \`--yes\` unless \`--dry-run\`, refuse active or needs_attention panes unless that status was selected with \`--status\`, and refuse everything while the guard (\`--max-active-agents\`, default 12; \`--max-load-per-core\`, default 1.5; \`--max-load1\`, off by default, \`none\` turns it off) is exceeded. Confirmed work runs queued, at most \`--concurrency\` at a time, each after a random delay of up to \`--jitter\` ms; \`--no-queue\` runs them one after another.

      Exits 1 when any entry was refused or failed, and whenever a mutating action was asked for without \`--yes\` or \`--dry-run\`.
    `,
    examples: [
      ["Status of the open spex sessions, as JSON", "spex session bulk status --open-only --json"],
      ["Plan stopping idle and dead sessions", "spex session bulk stop --open-only --status idle,dead --dry-run"],
      ["Restart idle sessions, two at a time", "spex session bulk restart --open-only --status idle --yes --concurrency 2 --jitter 500"],
    ],
  });

  action = Option.String({ name: "action", validator: t.isEnum(BULK_ACTIONS) });
  openOnly = Option.Boolean("--open-only", false, { description: "Only panes of open (not archived) spex sessions" });
  project = Option.String("-p,--project", { description: "Only panes whose project path or slug contains this text (or of this path's project)" });
  // `-m` is --message (merge, as in git); here it once meant --machine: still read, with a warning, so old scripts run.
  machineShort = Option.String("-m", { hidden: true });
  machine = Option.String("--machine", { description: "Only panes of these machines (comma-separated, case ignored): this one by its short host name, others from `spex machine ls`, asked over ssh" });
  allMachines = Option.Boolean("--all-machines", false, { description: "This machine and every machine of `spex machine ls`; a confirmed mutation runs on one machine at a time" });
  status = Option.String("--status", { description: "Comma-separated statuses to select: active, idle, needs_attention, dead" });
  dryRun = Option.Boolean("--dry-run", false, { description: "Plan only; change nothing" });
  yes = Option.Boolean("--yes", false, { description: "Confirm a mutating action" });
  queue = Option.Boolean("--queue", true, { description: "Run confirmed work through the bounded queue (--no-queue: one at a time)" });
  concurrency = Option.String("--concurrency", { description: "Operations in flight at once (default 2)", validator: t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(1)]) });
  jitter = Option.String("--jitter", { description: "Up to this many ms of random delay before each operation (default 0)", validator: t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(0)]) });
  maxActiveAgents = Option.String("--max-active-agents", { description: "Refuse mutations above this many active agents (default 12)", validator: isLimit });
  maxLoad1 = Option.String("--max-load1", { description: "Refuse mutations above this 1-minute load average (default none: no limit)", validator: isLimitOrNone });
  maxLoadPerCore = Option.String("--max-load-per-core", { description: "Refuse mutations above this load per core (default 1.5)", validator: isLimit });

  async execute(): Promise<number> {
    if (this.machineShort !== undefined) {
      this.context.stderr.write("spex: warning: -m is short for --message (spex session merge, as in git), no longer for --machine; write --machine here\n");
      this.machine ??= this.machineShort;
    }
    if (!isBulkAction(this.action)) throw new SpexError("usage", `unknown bulk action ${this.action}`, { hint: `use one of ${BULK_ACTIONS.join(", ")}`, exitCode: 2 });
    const config = liveConfig();
    if (config.warning) this.context.stderr.write(`spex: warning: ${config.warning}\n`);
    const defaults = config.bulk;
    const request = {
      action: this.action,
      dryRun: this.dryRun,
      yes: this.yes,
      queue: this.queue,
      concurrency: this.concurrency ?? defaults.concurrency,
      jitterMs: this.jitter ?? defaults.jitterMs,
      openOnly: this.openOnly,
      statuses: parseStatuses(this.status),
      project: this.project ?? null,
      machine: this.machine ?? null,
      limits: {
        maxActiveAgents: this.maxActiveAgents ?? defaults.maxActiveAgents,
        maxLoad1: this.maxLoad1 === undefined ? defaults.maxLoad1 : this.maxLoad1 === "none" ? null : this.maxLoad1,
        maxLoadPerCore: this.maxLoadPerCore ?? defaults.maxLoadPerCore,
      },
    };
    const targets = this.allMachines || this.machine !== undefined ? fleetTargets({ machine: this.machine, allMachines: this.allMachines }, machineName(), readMachines()) : undefined;
    const fleet = targets
      ? await runFleetBulk(targets, { ...request, machine: this.allMachines ? targets.map((t) => t.name).join(",") : request.machine }, {
        openOnly: this.openOnly, project: this.project, status: this.status, dryRun: this.dryRun, yes: this.yes, queue: this.queue,
        concurrency: this.concurrency, jitter: this.jitter, maxActiveAgents: this.maxActiveAgents, maxLoad1: this.maxLoad1, maxLoadPerCore: this.maxLoadPerCore,
      }, () => runBulk({ ...request, machine: null }, { observe: { config } }))
      : undefined;
    const envelope = fleet ?? (await runBulk(request, { observe: { config } }));
    if (this.json) writeJson(this.context.stdout, envelope);
    else {
      this.context.stdout.write(bulkReport(envelope, targets !== undefined));
      if (fleet) this.context.stderr.write(fleetWarnings(unanswered(fleet)));
    }
    // Asked to change sessions without a confirmation: refused, even when nothing was selected.
    const unconfirmed = isMutating(envelope.action) && !this.dryRun && !this.yes;
    if (unconfirmed && !this.json) this.context.stderr.write(`spex: bulk ${envelope.action} changes sessions: confirm with --yes, or plan with --dry-run\n`);
    return unconfirmed || envelope.summary.refused > 0 || envelope.summary.failed > 0 ? 1 : 0;
  }
}
