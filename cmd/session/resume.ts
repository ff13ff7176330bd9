import { Option } from "clipanion";
import * as t from "typanion";
import { SpexCommand } from "../base";
import { RemotableCommand } from "../remotable";
import type { RemoteSpec } from "../../lib/machines";
import { writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { resolveSelector } from "../../lib/sessions";
import { raisedJson, resumeOrRaise } from "../../lib/verbs/resume";
import { launchSpinner } from "../../lib/cli/launch-wait";

export class SessionResumeCommand extends RemotableCommand {
  static paths = [["session", "resume"]];
  static remote: RemoteSpec = { selectors: "selector" };
  static usage = SpexCommand.Usage({
    category: "Lifecycle",
    description: "relaunch a stopped session's agent, continuing its conversation",
    details: `
      The agent is started again in the session's worktree with its harness's resume marker and the recorded native session id (Claude Code: \`--resume <id>\`). A session whose agent is still running is refused unless \`--force\`, which stops it first (an agent pid that is some other process still refuses). A retired session (worktree gone) is refused with \`record_retired\`: only close remains.

      A session its budget parked (note \`budget_exceeded\`, its own budget or a tree budget of an ancestor it counts toward) is refused with \`budget_exceeded\`, with or without \`--force\`: \`--budget-usd N\` / \`--budget-tokens N\` sets a new limit first (a running agent is put back at rest, a stopped one relaunched). A new limit still below what was spent is written and the resume refused.
    `,
    examples: [
      ["Resume a stopped session", "spex session resume 3f2a"],
      ["Restart a running one", "spex session resume 3f2a --force"],
      ["Raise a spent budget to five dollars", "spex session resume 3f2a --budget-usd 5"],
    ],
  });

  selector = Option.String({ name: "SEL" });
  force = Option.Boolean("--force", false, { description: "Stop a running agent first" });
  budgetUsd = Option.String("--budget-usd", { description: "A new budget in dollars (a session parked by its budget is unparked)", validator: t.isNumber() });
  budgetTokens = Option.String("--budget-tokens", { description: "A new budget in tokens", validator: t.cascade(t.isNumber(), [t.isInteger()]) });

  async execute(): Promise<number> {
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
}
