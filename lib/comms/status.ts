// A message as a caller sees it (`message-status`, the snapshot): a claim in
// progress still reads `queued` (with the reason saying who is typing it), and
// a queued message carries its place in line.
import { readdirSync } from "node:fs";
import { errnoCode } from "../errors";
import { readSession } from "../record";
import { type ProjectStore, isSessionId } from "../store";
import { type MessageState, type QueuedMessage, listPending, positionOf } from "./queue";
import type { Sender } from "./timeline";

export interface MessageView {
  messageId: string;
  target: string;
  from: Sender;
  state: Exclude<MessageState, "claimed">;
  reason: string;
  /** 1 is next; 0 once settled. */
  queuePosition: number;
  createdAt: string;
  deliveredAt: string | null;
  /** State `answered`: the reply that answered it, and when (null otherwise). */
  answeredBy: string | null;
  answeredAt: string | null;
  text: string;
  keys: string[];
}

export function messageView(m: QueuedMessage, pending: QueuedMessage[]): MessageView {
  const state = m.state === "claimed" ? "queued" : m.state;
  return {
    messageId: m.id,
    target: m.target,
    from: m.from,
    state,
    reason: m.reason,
    queuePosition: state === "queued" ? positionOf(m, pending) : 0,
    createdAt: m.createdAt,
    deliveredAt: m.deliveredAt ?? null,
    answeredBy: m.answeredBy ?? null,
    answeredAt: m.answeredAt ?? null,
    text: m.text,
    keys: m.keys,
  };
}

/**
 * Every message of the project not yet handed over, by target, each target's
 * in queue order. A closed target's leftovers are not listed: the next
 * handover attempt drops them.
 */
export function listQueuedMessages(store: ProjectStore): MessageView[] {
  let targets: string[];
  try {
    targets = readdirSync(store.queueDir)
      .filter((t) => isSessionId(t) && readSession(store, t).kind !== "absent")
      .sort();
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return [];
    throw e;
  }
  return targets.flatMap((t) => {
    const pending = listPending(store, t);
    return pending.map((m) => messageView(m, pending));
  });
}
