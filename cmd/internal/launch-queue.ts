import { SpexCommand } from "../base";
import { writeJson } from "../../lib/cli/output";
import { currentProject } from "../../lib/store";
import { drainLaunchQueue } from "../../lib/create";

/**
 * Drains the launch queue; spawned detached by a hook whose agent freed a slot
 * (it exited, or came to rest with sessions.idleFreesSlot). Hidden from help
 * like every hook-facing command.
 */
export class InternalLaunchQueueCommand extends SpexCommand {
  static paths = [["internal", "launch-queue"]];

  async execute(): Promise<number> {
    const drain = await drainLaunchQueue(currentProject());
    if (this.json) writeJson(this.context.stdout, { launched: drain.launched, failed: drain.failed.map((e) => e.toJSON().error), waiting: drain.waiting });
    else this.context.stdout.write(`launched ${drain.launched.length}, ${drain.waiting} waiting\n`);
    return drain.failed.length > 0 ? 1 : 0;
  }
}
