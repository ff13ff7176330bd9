import { Option } from "clipanion";
import { SpexCommand } from "../base";
import { RemotableCommand } from "../remotable";
import type { RemoteSpec } from "../../lib/machines";
import { writeJson } from "../../lib/cli/output";
import { textFrom } from "../../lib/cli/input";
import { currentProject } from "../../lib/store";
import { resolveSender, sendToSelector } from "../../lib/comms";

export class SessionSendCommand extends RemotableCommand {
  static paths = [["session", "send"]];
  static remote: RemoteSpec = { selectors: "selector", files: ["--message-file"], caller: "--from" };
  static usage = SpexCommand.Usage({
    category: "Messages",
    description: "send a message to a session, typed when it is at rest",
    details: `
      The message is appended to the target's timeline and queued. It is typed into the agent's pane only when the agent is at rest (idle by its hooks, no dialog on screen, composer visible), as one bracketed paste followed by Enter, so multi-line text stays one message. Control characters in it (ESC, other C0 but TAB and LF, C1) are typed as visible stand-ins, so no text can end its own paste. A busy target keeps it queued until its next turn ends; a dead one (agent killed, pane dead) gets nothing typed and the message is \`held\`. Prints the message id (see \`spex session message-status\`) and its place in the queue.

      \`--keys\` sends tmux keys instead (for a native choice dialog): key names (Enter, Escape, Down, C-c, …) and plain words only, anything else is a usage error; they are not held back by a dialog.

      From inside a session (SPEX_SESSION_ID set) the message is attributed to that session and carries a one-line header telling the recipient how to reply. \`--from\` names another sender: a session, or a free-form name for a caller with no session here.

      A session writing back to a session answers it: every message that session sent this one and that was delivered becomes \`answered\` (see \`spex session message-status\`). \`--reply-to ID\` marks exactly that message instead; it must have been sent to this sender by the target and have reached it (else \`reply_invalid\`). A message to a stopped session stays \`queued\` with the reason "recipient stopped; delivered on resume" (a session waiting in the launch queue: "delivered once it starts").

      Refusals: \`tmux_missing\` (tmux not on PATH: nothing is queued; \`--queue-only\` still queues), \`message_too_large\` (over 8 KiB), \`queue_full\` (too many undelivered messages), \`message_repeated\` (the same text from the same sender still queued or just delivered), \`sender_revoked\` (the sender was closed), \`reply_invalid\` (\`--reply-to\` names a message that was not sent to this sender by the target, or has not reached it). Exit 3 when the handover ended \`held\`: the text was pasted but could not be confirmed (it may sit in the composer), or the target is dead (nothing was typed); the reason says which.
    `,
    examples: [
      ["Send a follow-up to a session", 'spex session send auth-fixer "also cover the logout path"'],
      ["Multi-line text from a file", "spex session send 3f2a --message-file notes.txt"],
      ["Answer a choice dialog", 'spex session send 3f2a --keys "Down Enter"'],
      ["Answer one message from the boss session", 'spex session send boss --reply-to 9c1e0b7a-3 "done: tests pass"'],
    ],
  });

  selector = Option.String({ name: "SEL" });
  message = Option.String({ name: "MESSAGE", required: false });
  messageFile = Option.String("--message-file", { description: "Read the message from a file, or - for stdin" });
  keys = Option.String("--keys", { description: "tmux key names or plain words to send instead of text (e.g. \"Down Enter\")" });
  from = Option.String("--from", { description: "The sender: a session selector, or a name for a caller with no session here" });
  noWait = Option.Boolean("--queue-only", false, { description: "Queue it and return without trying the handover now" });
  replyTo = Option.String("--reply-to", { description: "The id of the message (sent to you by this target) this one answers" });

  async execute(): Promise<number> {
    const store = currentProject();
    const text = (await textFrom(this.message, this.messageFile, this.context.stdin, "message")) ?? "";
    const keys = this.keys ? this.keys.split(/\s+/).filter(Boolean) : [];
    const result = await sendToSelector(store, this.selector, { from: resolveSender(store, this.from), text, keys, deliver: !this.noWait, replyTo: this.replyTo });
    if (this.json) writeJson(this.context.stdout, result);
    else {
      const why = result.reason ? ` (${result.reason})` : "";
      const where = result.state === "queued" ? `, position ${result.queuePosition}` : "";
      const answers = result.answered.length > 0 ? `; answers ${result.answered.join(", ")}` : "";
      this.context.stdout.write(`${result.messageId}: ${result.state}${where}${why}${answers}\n`);
    }
    return result.state === "held" ? 3 : 0;
  }
}
