import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { writeJson } from "../../lib/cli/output";
import { SpexError } from "../../lib/errors";
import { currentProject } from "../../lib/store";
import { quarantineRecord, restoreRecord } from "../../lib/teardown";

export class SessionQuarantineCommand extends SpexCommand {
  static paths = [["session", "quarantine"]];
  static usage = SpexCommand.Usage({
    category: "Recovery",
    description: "file away a record nothing can parse, once its runtime is provably gone",
    details: `
      For a \`corrupt\` row only. You name what the record belonged to (read it from the bytes, or from the residues \`stop\`/\`close\` report); spex re-proves right now that the agent leaf (\`agent.pid\`), that exact tmux session on the spex socket, the worktree and the branch are all gone, that the adapter is known and healthy (its program, from the project's launcher of that name or the built-in one, resolves on PATH; else \`adapter_unhealthy\`) and that no live process holds the native thread. Only then it moves \`session.json\`, byte for byte, plus your claim and the observed proof into \`quarantine/<id>/<timestamp>/\`; the row leaves \`ls\`. It never signals anything and never removes a worktree or branch. Any refusal moves nothing and says why.

      \`--restore\` moves the newest quarantined bytes back, only while no record with that id exists.
    `,
    examples: [
      ["Quarantine a corrupt record", "spex session quarantine 3f2a9c1e-… --adapter claude --tmux fix-auth-3f2a --worktree /repo/.worktrees/fix-auth-3f2a --branch spex/fix-auth-3f2a"],
      ["Bring it back", "spex session quarantine 3f2a9c1e-… --restore"],
    ],
  });

  id = Option.String({ name: "ID" });
  adapter = Option.String("--adapter", { description: "The adapter (harness) the session ran: claude, codex, gemini or shell" });
  thread = Option.String("--thread", { description: "The adapter's native conversation id, if it had one (never a spex session id)" });
  tmux = Option.String("--tmux", { description: "The session's tmux session name (on the spex socket)" });
  worktree = Option.String("--worktree", { description: "The session's worktree path" });
  branch = Option.String("--branch", { description: "The session's branch" });
  restore = Option.Boolean("--restore", false, { description: "Move the quarantined record back" });

  async execute(): Promise<number> {
    const store = currentProject();
    if (this.restore) {
      const result = await restoreRecord(store, this.id);
      if (this.json) writeJson(this.context.stdout, { ...result, restored: true });
      else this.context.stdout.write(`restored ${this.id} from ${result.bundle} (${result.bytes} bytes)\n`);
      return 0;
    }
    const missing = (["adapter", "tmux", "worktree", "branch"] as const).filter((k) => !this[k]);
    if (missing.length > 0) {
      throw new SpexError("usage", `quarantine needs ${missing.map((m) => `--${m}`).join(", ")}`, {
        hint: "name every resource the record belonged to; `spex session close ID` reports what its bytes seem to name",
        exitCode: 2,
      });
    }
    const result = await quarantineRecord(store, this.id, {
      adapter: this.adapter!,
      thread: this.thread ?? "",
      tmux: this.tmux!,
      worktree: this.worktree!,
      branch: this.branch!,
    });
    if (this.json) writeJson(this.context.stdout, { ...result, quarantined: true });
    else this.context.stdout.write(`quarantined ${this.id} into ${result.bundle} (${result.bytes} bytes)\n`);
    return 0;
  }
}
