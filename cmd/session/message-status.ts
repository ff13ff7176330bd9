import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { RemotableCommand } from "../remotable";
import type { RemoteSpec } from "../../lib/machines";
import { printable, writeJson } from "../../lib/cli/output";
import { SpexError } from "../../lib/errors";
import { currentProject } from "../../lib/store";
import { drainNow, findMessage, kickWaitingQueues, listPending, messageView } from "../../lib/comms";
import { readSession } from "../../lib/record";

const isSettledState = (s: string) => s === "delivered" || s === "held" || s === "dropped" || s === "answered";

export class SessionMessageStatusCommand extends RemotableCommand {
  static paths = [["session", "message-status"]];
  // A message id names no machine: --machine does.
  static remote: RemoteSpec = {};
  static usage = SpexCommand.Usage({
    category: "Messages",
    description: "tell what happened to a sent message",
    details: `
      One of \`queued\` (waiting for the target to be at rest; its place in line is shown, and a target that is not running says so: "recipient stopped; delivered on resume"), \`delivered\` (typed and submitted), \`answered\` (delivered, and the recipient has sent a message back to the session that sent it, or named it with \`send --reply-to\`; \`answeredBy\` is that reply), \`held\` (the handover could not be confirmed, e.g. the delivering process died between claim and Enter; it is never typed again) or \`dropped\` (the target or the sender was closed first). Queued, held and dropped carry the reason.
    `,
    examples: [
      ["Check a message", "spex session message-status 3f2a9c1e-4"],
      ["As JSON", "spex session message-status 3f2a9c1e-4 --json"],
    ],
  });

  id = Option.String({ name: "ID" });

  async execute(): Promise<number> {
    const store = currentProject();
    let m = findMessage(store, this.id);
    // A message to a session that was closed since is settled now (dropped), not left queued forever.
    if (m && !isSettledState(m.state) && readSession(store, m.target).kind === "absent") {
      await drainNow(store, m.target);
      m = findMessage(store, this.id);
    }
    if (!m) {
      throw new SpexError("message_not_found", `no message ${this.id} in this project`, {
        hint: "use the id `spex session send` printed, from the same repository",
        httpStatus: 404,
      });
    }
    if (m.state === "queued") await kickWaitingQueues(store);
    const view = messageView(m, isSettledState(m.state) ? [] : listPending(store, m.target));
    const { state, queuePosition: position } = view;
    if (this.json) writeJson(this.context.stdout, view);
    else {
      const extra = state === "queued" ? ` (position ${position}${m.reason ? `; ${m.reason}` : ""})` : m.reason ? ` (${m.reason})` : "";
      const when = m.answeredBy ? ` by ${m.answeredBy} at ${m.answeredAt}` : m.deliveredAt ? ` at ${m.deliveredAt}` : "";
      this.context.stdout.write(`${m.id}: ${state}${when}${printable(extra)}\n`);
    }
    return 0;
  }
}
