import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { RemotableCommand } from "../remotable";
import type { RemoteSpec } from "../../lib/machines";
import { printable, writeJson } from "../../lib/cli/output";
import { SpexError } from "../../lib/errors";
import { waitNoticeFor } from "../../lib/cli/wait-notice";
import { currentProject } from "../../lib/store";
import { resolveSelector } from "../../lib/sessions";
import { archiveSession, describeFreed, describeRuntime, restoreArchived } from "../../lib/teardown";
import { readSession, recordLiveness } from "../../lib/record";
import type { ProjectStore } from "../../lib/store";

/** Whether the session's agent still runs (a plain archive leaves it at work). */
function agentRunning(store: ProjectStore, id: string): boolean {
  const reading = readSession(store, id);
  return reading.kind === "ok" && recordLiveness(reading.record, reading.pending !== null) === "online";
}

export class SessionArchiveCommand extends RemotableCommand {
  static paths = [["session", "archive"]];
  static remote: RemoteSpec = { selectors: "selector" };
  static usage = SpexCommand.Usage({
    category: "Lifecycle",
    description: "file a session away, capturing its last screen first (or bring it back with --restore)",
    details: `
      The pane's screen (with some scrollback) is saved to the session's \`last-screen.txt\`, shown by \`spex session show\`, and the row is hidden from \`ls\` (\`ls --all\` shows it). A live pane keeps running unless \`--stop\` is given, which stops it exactly like \`spex session stop\`.

      \`--restore\` un-archives: the row is listed again and nothing else changes. Nothing is launched: a stopped session stays stopped until \`spex session resume\`.
    `,
    examples: [
      ["Archive a finished session", "spex session archive 3f2a"],
      ["Archive and stop its agent", "spex session archive 3f2a --stop"],
      ["Bring an archived session back into the list", "spex session archive --restore 3f2a"],
    ],
  });

  selector = Option.String({ name: "SEL" });
  stop = Option.Boolean("--stop", false, { description: "Also stop the agent and its tmux session" });
  restore = Option.Boolean("--restore", false, { description: "Un-archive instead: list the row again, without relaunching anything" });

  async execute(): Promise<number> {
    const store = currentProject();
    if (this.restore && this.stop) throw new SpexError("usage", "--restore and --stop do not go together", { hint: "restore it, then `spex session stop` it", exitCode: 2 });
    const { id } = resolveSelector(store, this.selector);
    if (this.restore) {
      const { change: _c, ...restored } = await restoreArchived(store, id);
      if (this.json) writeJson(this.context.stdout, restored);
      else this.context.stdout.write(`${restored.changed ? "restored" : "not archived:"} ${id.slice(0, 8)}\n`);
      return 0;
    }
    const { change: _change, ...result } = await archiveSession(store, id, { stop: this.stop, onWait: waitNoticeFor(this.context.stderr, this.json, id) });
    if (this.json) {
      writeJson(this.context.stdout, result);
      return 0;
    }
    const screen = result.screenBytes === null ? "no pane to capture" : `last screen saved (${result.screenBytes} bytes)`;
    const stop = result.runtime ? `; ${describeRuntime(result.runtime)}` : "";
    const id8 = id.slice(0, 8);
    // A plain archive files the row away and leaves a live agent at work: say so, and how to undo either.
    const running = !this.stop && agentRunning(store, id) ? `its agent keeps running: \`spex session archive --restore ${id8}\` lists it again, \`spex session stop ${id8}\` stops it\n` : "";
    this.context.stdout.write(printable(`archived ${id8}: ${screen}${stop}\n${running}${describeFreed(result)}`));
    return 0;
  }
}
