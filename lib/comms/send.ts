// `spex session send` (DESIGN.md §1.11): append to the target's timeline under
// its record lock (and the named sender's, in sorted order), queue the
// delivery under the queue lock, release every lock, then try the handover.
import { SpexError } from "../errors";
import { whichSync } from "../proc/which";
import { withLocks } from "../lock";
import { labelOf, shortId } from "../naming";
import { readSession, refuseUnusable } from "../record";
import { refuseUnsafeKeys, tmuxMissing } from "../tmux";
import { type ProjectStore, recordLockPath } from "../store";
import { advanceCursor } from "./cursor";
import { type DrainReport, drainNow } from "./deliver";
import { type MessageState, enqueue, findMessage, refuseTooLarge } from "./queue";
import { isRevoked } from "./revoke";
import { checkReplyTo, markAnswered } from "./answered";
import { type Sender, appendEvent, takeBackTimeline, timelineEnd } from "./timeline";

export type SenderInput = { kind: "session"; id: string } | { kind: "name"; name: string } | { kind: "user" };

export interface SendInput {
  target: string;
  from: SenderInput;
  text: string;
  keys: string[];
  /** Try the handover now (default true); false only queues it. */
  deliver?: boolean;
  /** How long the handover may wait for the screen to come to rest. */
  patienceMs?: number;
  /** The message (sent to this sender by the target) this one answers. */
  replyTo?: string;
}

export interface SendResult {
  messageId: string;
  target: string;
  queuePosition: number;
  state: MessageState;
  reason: string;
  timelineSeq: number;
  /** Messages from the target to the sender this one answered (now `answered`). */
  answered: string[];
}

function refuseRevoked(id: string): never {
  throw new SpexError("sender_revoked", `session ${shortId(id, 8)} was closed; it can no longer send messages`, {
    hint: "send from a live session, or without --from",
    httpStatus: 410,
  });
}

function refuseShape(input: SendInput): void {
  if (input.text === "" && input.keys.length === 0) {
    throw new SpexError("usage", "nothing to send: give a message or --keys", { exitCode: 2, httpStatus: 400 });
  }
  if (input.text !== "" && input.keys.length > 0) {
    throw new SpexError("usage", "give a message or --keys, not both", { exitCode: 2, httpStatus: 400 });
  }
  // Checked again under the queue lock; here it refuses before any lock is taken.
  refuseTooLarge(input.text);
  // Keys reach tmux's argument parser: names and plain words only, refused before anything is queued.
  refuseUnsafeKeys(input.keys);
  if (input.from.kind === "session" && input.from.id === input.target) {
    throw new SpexError("send_self", "a session cannot send a message to itself", { hint: "name another session", httpStatus: 400 });
  }
}

/**
 * A handover needs tmux: without it the send would queue the message, fail,
 * and leave it for the next send or hook to type, so a send that said it
 * failed and was repeated once tmux was back reached the agent twice.
 * Refused before anything is queued; --queue-only queues without it.
 */
function refuseWithoutTmux(input: SendInput): void {
  if (input.deliver === false || whichSync("tmux")) return;
  throw tmuxMissing("then send again: nothing was queued (--queue-only queues it for a later handover)");
}

export async function sendMessage(store: ProjectStore, input: SendInput): Promise<SendResult> {
  refuseShape(input);
  refuseWithoutTmux(input);
  const from = input.from;
  if (from.kind === "session" && isRevoked(store, from.id)) refuseRevoked(from.id);
  // A reply that names the wrong message is refused before anything is queued.
  if (input.replyTo) checkReplyTo(store, input.replyTo, from.kind === "session" ? from.id : undefined, input.target);
  const locks = [recordLockPath(store, input.target)];
  if (from.kind === "session") locks.push(recordLockPath(store, from.id));

  const queued = await withLocks(
    locks,
    async () => {
      const target = readSession(store, input.target);
      refuseUnusable(target);
      let sender: Sender;
      if (from.kind === "session") {
        // Close holds this lock through record removal, then revokes: checked here, under it.
        if (isRevoked(store, from.id)) refuseRevoked(from.id);
        const reading = readSession(store, from.id);
        if (reading.kind === "absent") refuseRevoked(from.id);
        refuseUnusable(reading, { allowRetired: true });
        sender = { kind: "session", id: from.id, label: labelOf(reading.record) };
      } else sender = from;
      const body = input.keys.length > 0 ? { keys: input.keys } : { text: input.text };
      // Both timelines are ours under these locks: a message that could not be queued is taken back from them.
      const ends = [input.target, ...(from.kind === "session" ? [from.id] : [])].map((id) => ({ id, end: timelineEnd(store, id) }));
      const takeBack = () => {
        for (const { id, end } of ends) takeBackTimeline(store, id, end);
      };
      return enqueue(
        store,
        input.target,
        { from: sender, text: input.text, keys: input.keys },
        (messageId) => {
          try {
            const seq = appendEvent(store, input.target, { kind: "message_in", messageId, from: sender, ...body }).seq;
            if (from.kind === "session") appendEvent(store, from.id, { kind: "message_out", messageId, to: input.target });
            return seq;
          } catch (e) {
            takeBack();
            throw e;
          }
        },
        { takeBack },
      );
    },
    { purpose: `send to ${input.target}` },
  );
  const message = queued.message;
  // The sender's own wait resumes after the message it just queued (never woken by it, nor by older news).
  if (from.kind === "session") advanceCursor(store, input.target, from.id, message.timelineSeq);
  // A session writing back to a session answers what that one asked it.
  const answered = from.kind === "session" ? await markAnswered(store, { replier: from.id, asker: input.target, replyId: message.id, only: input.replyTo }) : [];

  let report: DrainReport | undefined;
  if (input.deliver !== false) report = await drainNow(store, input.target, input.patienceMs ?? 3000);
  const mine = report?.outcomes.filter((o) => o.messageId === message.id).pop();
  const now = mine ?? (() => {
    const m = findMessage(store, message.id);
    return { state: m?.state ?? message.state, reason: m?.reason || (report?.blocked ?? "") };
  })();
  return {
    messageId: message.id,
    target: input.target,
    queuePosition: queued.position,
    state: now.state === "claimed" ? "queued" : now.state,
    reason: now.state === "queued" && !now.reason ? report?.blocked ?? "" : now.reason,
    timelineSeq: message.timelineSeq,
    answered,
  };
}
