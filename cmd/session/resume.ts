import { Option } from "clipanion";
import * as t from "typanion";
import { SpexCommand } from "../base";
import { RemotableCommand } from "../remotable";
import type { RemoteSpec } from "../../lib/machines";
import { writeJson } from "../../lib/cli/output";
import { currentProject, spexHome } from "../../lib/store";
import { resolveSelector } from "../../lib/sessions";
import { fleetStores, resumeAll } from "../../lib/teardown";
import { raisedJson, resumeOrRaise } from "../../lib/verbs/resume";
import { launchSpinner } from "../../lib/cli/launch-wait";
import { SpexError } from "../../lib/errors";
import { OFFLINE_REASONS, type OfflineReason, isOfflineReason } from "../../lib/survive/reason";
import { STATUS_WORDS } from "../../lib/verbs/list";
import { projectMatcher, projectSlugOf } from "../../lib/live/project";
import { renderResumeAll } from "../../lib/cli/resume-all";

function words(text: string | undefined): string[] | undefined {
  return text === undefined ? undefined : text.split(",").map((s) => s.trim()).filter(Boolean);
}

function usage(message: string, hint: string): SpexError {
  return new SpexError("usage", message, { hint, exitCode: 2 });
}

export class SessionResumeCommand extends RemotableCommand {
  static paths = [["session", "resume"]];
  static remote: RemoteSpec = { selectors: "selector" };
  static usage = SpexCommand.Usage({
    category: "Lifecycle",
    description: "relaunch a stopped session's agent (or, with --all, every one whose agent died), continuing its conversation",
    details: `
      The agent is started again in the session's worktree with its harness's resume marker and the recorded native session id (Claude Code: \`--resume <id>\`, Codex: \`resume <id>\`, Gemini CLI: \`--resume <id>\`). A session whose agent is still running is refused unless \`--force\`, which stops it first (an agent pid that is some other process still refuses). A retired session (worktree gone) is refused with \`record_retired\`: only close remains.

      A session its budget parked (note \`budget_exceeded\`, its own budget or a tree budget of an ancestor it counts toward) is refused with \`budget_exceeded\`, with or without \`--force\`: \`--budget-usd N\` / \`--budget-tokens N\` sets a new limit first (a running agent is put back at rest, a stopped one relaunched). A new limit still below what was spent is written and the resume refused.

      \`--all\` brings back every session, in every project of SPEX_HOME (\`--project\` narrows), whose agent died under it: the machine restarted (\`machine_restarted\`), its tmux server went (\`tmux_server_gone\`) or the agent exited (\`agent_exited\`), as \`spex session ls\` shows beside \`offline\`. A session spex stopped (\`killed\`) is left alone unless \`--reason killed\` is given; archived ones are left alone (\`spex session archive --restore\` first). As many as \`sessions.maxActive\` leaves room for launch at once, in parallel, the rest wait in the launch queue (\`queued #N\`) and start as slots free, each once. Messages sent while a session was down are handed over once it is at rest again; \`--note\` adds one for each session that died mid-turn (working or asking; not a shell session, which would run it). \`--dry-run\` prints the plan and changes nothing; \`--quiet\` prints only failures. Exit 1 when any session could not be resumed.

      A user service can run \`spex session resume --all --quiet\` at login: see docs/survive.md.
    `,
    examples: [
      ["Resume a stopped session", "spex session resume 3f2a"],
      ["Restart a running one", "spex session resume 3f2a --force"],
      ["Plan bringing the fleet back after a reboot", "spex session resume --all --dry-run"],
      ["Bring it back, telling the ones cut off mid-turn", "spex session resume --all --note 'the machine restarted; continue where you left off'"],
      ["Raise a spent budget to five dollars", "spex session resume 3f2a --budget-usd 5"],
    ],
  });

  selector = Option.String({ name: "SEL", required: false });
  force = Option.Boolean("--force", false, { description: "Stop a running agent first" });
  all = Option.Boolean("--all", false, { description: "Every session whose agent died (machine restarted, tmux server gone, agent exited)" });
  reason = Option.String("--reason", { description: `With --all: the reasons to bring back, comma-separated (${OFFLINE_REASONS.join(", ")}; default all but killed)` });
  status = Option.String("--status", { description: "With --all: only sessions with these display statuses or lifecycles (as `ls --status`; `active`: died mid-turn)" });
  group = Option.String("--group", { description: "With --all: only sessions filed in this group or its subgroups" });
  project = Option.String("-p,--project", { description: "With --all: only projects whose path or folder name contains this text (or this path's project)" });
  dryRun = Option.Boolean("--dry-run", false, { description: "With --all: print the plan; change nothing" });
  note = Option.String("--note", { description: "With --all: a message for each session that died mid-turn, handed over once it runs again" });
  quiet = Option.Boolean("--quiet", false, { description: "With --all: print nothing but failures" });
  budgetUsd = Option.String("--budget-usd", { description: "A new budget in dollars (a session parked by its budget is unparked)", validator: t.isNumber() });
  budgetTokens = Option.String("--budget-tokens", { description: "A new budget in tokens", validator: t.cascade(t.isNumber(), [t.isInteger()]) });

  async execute(): Promise<number> {
    if (this.all) return this.resumeFleet();
    const fleetOnly = [this.reason, this.status, this.group, this.project, this.note].some((v) => v !== undefined) || this.dryRun || this.quiet;
    if (fleetOnly) throw usage("--reason, --status, --group, --project, --note, --dry-run and --quiet go with --all", "add --all, or name one session to resume");
    if (this.selector === undefined) throw usage("name the session to resume, or give --all", "spex session resume SEL, or spex session resume --all --dry-run");
    const store = currentProject();
    const { id } = resolveSelector(store, this.selector);
    const { spinner, onWaiting } = launchSpinner(this.context.stderr, this.json, `relaunching session ${id.slice(0, 8)}`);
    const answer = await resumeOrRaise(store, id, { force: this.force, onWaiting, budget: { usd: this.budgetUsd, tokens: this.budgetTokens } }).finally(() => spinner.stop());
    if (answer.kind === "raised") {
      const { raised } = answer;
      if (this.json) writeJson(this.context.stdout, raisedJson(id, raised));
      else this.context.stdout.write(`budget of ${id.slice(0, 8)} raised (${Math.floor(raised.percent)} % spent)${raised.unparked ? "; it is at rest again" : ""}\n`);
      return 0;
    }
    const result = answer.result;
    if (this.json) {
      writeJson(this.context.stdout, { id, resumeArgs: result.resumeArgs, ready: result.ready, stopped: result.stopped ? { leaf: result.stopped.leaf, tmux: result.stopped.tmux } : null, tmuxSession: result.launch.record.tmux_session });
    } else {
      this.context.stdout.write(`resumed ${id.slice(0, 8)}${result.ready ? "" : " (not ready yet)"}: ${result.launch.record.tmux_session}\n`);
    }
    return 0;
  }

  private async resumeFleet(): Promise<number> {
    if (this.selector !== undefined) throw usage("--all takes no session; narrow it with --status, --group, --project or --reason", "drop the selector, or drop --all");
    if (this.budgetUsd !== undefined || this.budgetTokens !== undefined) throw usage("--budget-usd and --budget-tokens raise one session's budget, not --all's", "raise it with spex session resume SEL --budget-usd N");
    if (this.force) throw usage("--force does not go with --all: --all brings back only sessions whose agent is gone", "resume a running session on its own with --force");
    const reasons = words(this.reason);
    const unknown = reasons?.filter((r) => !isOfflineReason(r)) ?? [];
    if (unknown.length > 0 || reasons?.length === 0) throw usage(`unknown reason ${unknown.join(", ")}`, `use any of ${OFFLINE_REASONS.join(", ")}`);
    const statuses = words(this.status);
    const badStatus = statuses?.filter((s) => !STATUS_WORDS.includes(s)) ?? [];
    if (badStatus.length > 0) throw usage(`unknown status ${badStatus.join(", ")}`, `use any of ${STATUS_WORDS.join(", ")}`);
    // --repo (or --machine with it) names one repository; otherwise every project here, as `bulk` does.
    const match = this.project === undefined ? undefined : projectMatcher(this.project);
    const stores = this.repo !== undefined ? [currentProject()] : fleetStores(spexHome(), (root) => !match || match(root, projectSlugOf(root, "")));
    const result = await resumeAll(stores, { reasons: reasons as OfflineReason[] | undefined, statuses, group: this.group }, { dryRun: this.dryRun, note: this.note });
    if (this.json) writeJson(this.context.stdout, result);
    else if (!this.quiet) this.context.stdout.write(renderResumeAll(result));
    else for (const e of result.entries) if (e.outcome === "failed") this.context.stderr.write(`spex: session ${e.shortId} was not resumed: ${e.error?.message ?? "failed"} [${e.error?.code ?? "error"}]\n`);
    return result.summary.failed > 0 ? 1 : 0;
  }
}
