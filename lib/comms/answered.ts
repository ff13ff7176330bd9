// Message states past delivery (issue 13 item 7, seed 002's message states): a
// message session A sent to B is `answered` once B sends a message back to A
// (every message of A's that B was handed by then), or once B names it with
// `send --reply-to ID` (that one, even if its handover was only `held`: B
// says it saw it). The mark lands on the settled message under B's queue lock.
import { SpexError } from "../errors";
import { shortId } from "../naming";
import type { ProjectStore } from "../store";
import { type QueuedMessage, findMessage, listSettled, saveMessage, withQueueLock } from "./queue";

/** States a reply may name: the message reached the replier's pane (or may have). */
const REPLIABLE = new Set(["delivered", "held", "answered"]);

function replyInvalid(message: string, hint: string, details: Record<string, unknown>): SpexError {
  return new SpexError("reply_invalid", message, { hint, details, httpStatus: 400 });
}

/**
 * The message `--reply-to ID` names, checked before anything is queued: one
 * sent by `to` to the replying session `replier`, already handed over.
 */
export function checkReplyTo(store: ProjectStore, id: string, replier: string | undefined, to: string): QueuedMessage {
  const m = findMessage(store, id);
  if (!m) {
    throw new SpexError("message_not_found", `no message ${id} in this project`, { hint: "use the id `spex session message-status` knows", httpStatus: 404 });
  }
  if (!replier) {
    throw replyInvalid(`only a session answers a message sent to it; this send has no session as its sender`, "send from the session the message was sent to (its SPEX_SESSION_ID, or --from it)", { messageId: id });
  }
  if (m.target !== replier) {
    throw replyInvalid(`message ${id} was sent to session ${shortId(m.target, 8)}, not to the sender ${shortId(replier, 8)}`, "reply to a message that was sent to you", { messageId: id, target: m.target });
  }
  if (m.from.kind !== "session" || m.from.id !== to) {
    const from = m.from.kind === "session" ? `session ${shortId(m.from.id, 8)}` : m.from.kind === "name" ? `"${m.from.name}"` : m.from.kind;
    throw replyInvalid(`message ${id} came from ${from}, not from session ${shortId(to, 8)} this reply goes to`, "send the reply to the session that sent the message", { messageId: id });
  }
  if (!REPLIABLE.has(m.state)) {
    throw replyInvalid(`message ${id} is ${m.state === "claimed" ? "queued" : m.state}: it has not reached you, so it cannot be answered`, "check it with `spex session message-status`", { messageId: id, state: m.state });
  }
  return m;
}

/**
 * Mark what the reply `replyId` (from `replier` to `asker`) answers: the one
 * message named by --reply-to, else every message `asker` sent `replier` that
 * was delivered and not yet answered. Returns the ids marked.
 */
export async function markAnswered(store: ProjectStore, o: { replier: string; asker: string; replyId: string; only?: string }): Promise<string[]> {
  return withQueueLock(store, o.replier, () => {
    const at = new Date().toISOString();
    const marked: string[] = [];
    for (const m of listSettled(store, o.replier)) {
      const answers = o.only ? m.id === o.only && m.state !== "answered" && REPLIABLE.has(m.state) : m.state === "delivered" && m.from.kind === "session" && m.from.id === o.asker;
      if (!answers) continue;
      saveMessage(store, { ...m, state: "answered", answeredBy: o.replyId, answeredAt: at });
      marked.push(m.id);
    }
    return marked;
  });
}
