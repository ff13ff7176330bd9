import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { printable, writeJson } from "../../lib/cli/output";
import { SpexError } from "../../lib/errors";
import { currentProject } from "../../lib/store";
import { drainNow, findMessage, kickWaitingQueues, listPending, positionOf } from "../../lib/comms";
import { readSession } from "../../lib/record";

const isSettledState = (s: string) => s === "delivered" || s === "held" || s === "dropped";

export class SessionMessageStatusCommand extends SpexCommand {
  static paths = [["session", "message-status"]];
  static usage = SpexCommand.Usage({
    category: "Messages",
    description: "tell what happened to a sent message",
    details: `
      One of \`queued\` (waiting for the target to be at rest; its place in line is shown), \`delivered\` (typed and submitted), \`held\` (the handover could not be confirmed, e.g. the delivering process died between claim and Enter; it is never typed again) or \`dropped\` (the target or the sender was closed first). Held and dropped carry the reason.
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
    const state = m.state === "claimed" ? "queued" : m.state;
    const position = state === "queued" ? positionOf(m, listPending(store, m.target)) : 0;
    const view = {
      messageId: m.id,
      target: m.target,
      from: m.from,
      state,
      reason: m.reason,
      queuePosition: position,
      createdAt: m.createdAt,
      deliveredAt: m.deliveredAt ?? null,
      text: m.text,
      keys: m.keys,
    };
    if (this.json) writeJson(this.context.stdout, view);
    else {
      const extra = state === "queued" ? ` (position ${position}${m.reason ? `; ${m.reason}` : ""})` : m.reason ? ` (${m.reason})` : "";
      const when = m.deliveredAt ? ` at ${m.deliveredAt}` : "";
      this.context.stdout.write(`${m.id}: ${state}${when}${printable(extra)}\n`);
    }
    return 0;
  }
}
