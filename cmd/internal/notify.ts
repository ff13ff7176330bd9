import { Command, Option } from "clipanion";
import { currentProject } from "../../lib/store";

/**
 * Delivers one notification to the configured sinks; started detached by the
 * process whose write made the transition (lib/attention/dispatch). Hidden
 * like every hook-facing command; failures go to $SPEX_HOME/notify.log.
 */
export class InternalNotifyCommand extends Command {
  static paths = [["internal", "notify"]];

  payload = Option.String({ name: "payload" });

  async execute(): Promise<number> {
    const { deliverNotification, logNotify } = await import("../../lib/attention");
    let payload;
    try {
      payload = JSON.parse(this.payload);
    } catch (e) {
      this.context.stderr.write(`spex: the notification is not JSON: ${(e as Error).message}\n`);
      return 2;
    }
    const store = currentProject();
    try {
      const report = await deliverNotification(store, payload);
      return report.failed.length > 0 ? 1 : 0;
    } catch (e) {
      logNotify(store.home, { outcome: "failed", event: String(payload?.event), session: String(payload?.session_id), sink: "all", detail: (e as Error).message });
      return 1;
    }
  }
}
