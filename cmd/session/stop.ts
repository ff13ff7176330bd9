import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { RemotableCommand } from "../remotable";
import type { RemoteSpec } from "../../lib/machines";
import { printable, writeJson } from "../../lib/cli/output";
import { waitNoticeFor } from "../../lib/cli/wait-notice";
import { currentProject } from "../../lib/store";
import { resolveSelector } from "../../lib/sessions";
import { describeFreed, describeRuntime, flushTiming, stopSession } from "../../lib/teardown";

export class SessionStopCommand extends RemotableCommand {
  static paths = [["session", "stop"]];
  static remote: RemoteSpec = { selectors: "selector" };
  static usage = SpexCommand.Usage({
    category: "Lifecycle",
    description: "stop a session's agent and its tmux session; the worktree, branch and row stay",
    details: `
      The recorded agent pid is checked first. A pid that names no live process makes the stop record-only. A live pid whose start time matches the record is sent TERM (a shell session's HUP first: an interactive shell ignores TERM), then KILL after a grace period (SPEX_STOP_GRACE_MS, default 3000); on a terminal a line on stderr says what is being waited for once it takes more than a moment. A live pid that is some other process is refused with \`leaf_unprovable\` and nothing is signalled.

      A record that cannot be parsed is refused with \`record_corrupt\`, listing the worktree, branch and tmux session its bytes seem to name.
    `,
    examples: [
      ["Stop a session by id prefix", "spex session stop 3f2a"],
      ["Stop the session of this worktree, as JSON", "spex session stop . --json"],
    ],
  });

  selector = Option.String({ name: "SEL" });

  async execute(): Promise<number> {
    const store = currentProject();
    const { id } = resolveSelector(store, this.selector);
    const { change: _change, ...result } = await stopSession(store, id, { onWait: waitNoticeFor(this.context.stderr, this.json, id) });
    flushTiming(this.context.stderr);
    if (this.json) writeJson(this.context.stdout, { ...result, stopped: true });
    else this.context.stdout.write(printable(`stopped ${id.slice(0, 8)}: ${describeRuntime(result)}\n${describeFreed(result)}`));
    return 0;
  }
}
