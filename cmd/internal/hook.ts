import { Command, Option } from "clipanion";
import * as t from "typanion";
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { HOOK_ACTIONS } from "../../lib/harness/types";
import { readPayload } from "../../lib/hooks/payload";
import { handleHookEvent } from "../../lib/hooks/handle";
import { currentProject, sessionIdFromEnv, spexHome } from "../../lib/store";

/**
 * Hook-facing: called by hooks/agent-hook.sh only when the record would change.
 * It never fails the agent: errors go to $SPEX_HOME/hooks.log and it exits 0.
 */
export class InternalHookCommand extends Command {
  static paths = [["internal", "hook"]];

  harness = Option.String({ name: "harness" });
  action = Option.String({ name: "action", validator: t.isEnum(HOOK_ACTIONS) });
  event = Option.String({ name: "event", required: false });

  async execute(): Promise<number> {
    const id = process.env.SPEX_SESSION_ID;
    if (!id) return 0;
    try {
      const payload = await readPayload(this.context.stdin);
      const store = currentProject();
      await handleHookEvent(store, sessionIdFromEnv()!, this.action, payload);
    } catch (error) {
      try {
        mkdirSync(spexHome(), { recursive: true });
        appendFileSync(
          join(spexHome(), "hooks.log"),
          `${new Date().toISOString()} ${id} ${this.harness} ${this.action} ${this.event ?? ""}: ${(error as Error).message}\n`,
        );
      } catch {
        // nowhere left to report; the agent must not be blocked
      }
    }
    return 0;
  }
}
