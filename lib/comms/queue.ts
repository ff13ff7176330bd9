// The delivery queue (DESIGN.md §1.11, §7). One folder per target under
// queue/, guarded by the queue's own lock: whoever holds it decides which
// message is handed over next, so a message is typed at most once. Entries in
// pending/ are queued or claimed; settled ones (delivered, held, dropped) move
// to done/ and stay queryable by id.
import { existsSync, mkdirSync, readdirSync, rmSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { SpexError, errnoCode } from "../errors";
import { withLock } from "../lock";
import { shortId } from "../naming";
import type { ProjectStore } from "../store";
import { readJsonFile, touchDurably, writeJsonDurably } from "./files";
import { inboxMarker, messageFileName, queuePaths } from "./paths";
import type { Sender } from "./timeline";
import { sessionPaths } from "../store";

export type MessageState = "queued" | "claimed" | "delivered" | "held" | "dropped" | "answered";

export interface Claim {
  pid: number;
  start: string;
  boot: string;
  at: string;
  /** The target's timeline sequence when the claim was taken: any state event after it proves the turn. */
  seq: number;
  /** Tells two claims of one process apart. */
  nonce: string;
  /** How the text showed in the composer area before the paste (screen.ts): the baseline a later delivery proves the composer clear against. */
  echo?: ComposerEchoShape;
}

/** screen.ts's ComposerEcho, as stored. */
export interface ComposerEchoShape {
  probe: string;
  count: number;
  placeholders: number;
}

export interface QueuedMessage {
  id: string;
  target: string;
  n: number;
  from: Sender;
  /** The sender's words (empty for a keys message). */
  text: string;
  /** Raw tmux keys for a native dialog (empty for a text message). */
  keys: string[];
  /** Watch notices: the session whose state they report. */
  about?: string;
  state: MessageState;
  reason: string;
  createdAt: string;
  updatedAt: string;
  /** Sequence of the message_in event on the target's timeline (0 for watch notices). */
  timelineSeq: number;
  claim?: Claim;
  deliveredAt?: string;
  /** The reply that answered it (state `answered`): its message id, and when. */
  answeredBy?: string;
  answeredAt?: string;
}

export interface QueueState {
  next: number;
  /** The last text handed over: the next one waits for a state event after its claim. */
  lastHandover?: { messageId: string; claimSeq: number; at: string };
  /**
   * A delivery that may have left its text unsent in the composer (its process
   * died after the claim, or Enter was never pressed): nothing more is typed
   * until the composer is proven clear of it (deliver.ts), or two messages
   * would go in as one.
   */
  composer?: { messageId: string; claimSeq: number; echo?: ComposerEchoShape };
}

export const MAX_MESSAGE_BYTES = 8 * 1024;
export const REPEAT_WINDOW_MS = 30_000;

export function queueDepthLimit(): number {
  const v = Number(process.env.SPEX_QUEUE_DEPTH);
  return Number.isInteger(v) && v > 0 ? v : 64;
}

export function isSettled(state: MessageState): boolean {
  return state === "delivered" || state === "held" || state === "dropped" || state === "answered";
}

export function senderKey(from: Sender): string {
  switch (from.kind) {
    case "session":
      return `session:${from.id}`;
    case "watch":
      return `watch:${from.id}`;
    case "name":
      return `name:${from.name}`;
    case "user":
      return "user";
  }
}

export async function withQueueLock<T>(store: ProjectStore, target: string, fn: () => T | Promise<T>): Promise<T> {
  const q = queuePaths(store, target);
  mkdirSync(q.pending, { recursive: true });
  mkdirSync(q.done, { recursive: true });
  return withLock(q.lock, fn, { purpose: `deliver to ${target}` });
}

export function readQueueState(store: ProjectStore, target: string): QueueState {
  const s = readJsonFile<QueueState>(queuePaths(store, target).state);
  return s && s !== "corrupt" && typeof s.next === "number" ? s : { next: 1 };
}

export function writeQueueState(store: ProjectStore, target: string, state: QueueState): void {
  writeJsonDurably(queuePaths(store, target).state, state);
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir).filter((n) => n.endsWith(".json")).sort();
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return [];
    throw e;
  }
}

/** Queued and claimed messages of a target, in queue order. Call under the queue lock to act on them. */
export function listPending(store: ProjectStore, target: string): QueuedMessage[] {
  const q = queuePaths(store, target);
  const out: QueuedMessage[] = [];
  for (const name of listDir(q.pending)) {
    // A settled copy in done/ wins: the writer crashed between the two steps of settling.
    if (existsSync(join(q.done, name))) {
      rmSync(join(q.pending, name), { force: true });
      continue;
    }
    const m = readJsonFile<QueuedMessage>(join(q.pending, name));
    if (m && m !== "corrupt") out.push(m);
  }
  return out;
}

/** Settled messages of a target, oldest first. */
export function listSettled(store: ProjectStore, target: string): QueuedMessage[] {
  const q = queuePaths(store, target);
  const out: QueuedMessage[] = [];
  for (const name of listDir(q.done)) {
    const m = readJsonFile<QueuedMessage>(join(q.done, name));
    if (m && m !== "corrupt") out.push(m);
  }
  return out;
}

// Settled messages stay queryable by id; only the newest KEEP_SETTLED per target are kept.
const KEEP_SETTLED = 500;
const PRUNE_EVERY = 100;

function pruneSettled(doneDir: string): void {
  const names = listDir(doneDir);
  for (const name of names.slice(0, Math.max(0, names.length - KEEP_SETTLED))) rmSync(join(doneDir, name), { force: true });
}

/** Write a message where its state says it belongs (pending/ or done/). Under the queue lock. */
export function saveMessage(store: ProjectStore, m: QueuedMessage): void {
  const q = queuePaths(store, m.target);
  const name = messageFileName(m.n);
  m.updatedAt = new Date().toISOString();
  if (isSettled(m.state)) {
    writeJsonDurably(join(q.done, name), m);
    try {
      unlinkSync(join(q.pending, name));
    } catch (e) {
      if (errnoCode(e) !== "ENOENT") throw e;
    }
    if (m.n % PRUNE_EVERY === 0) pruneSettled(q.done);
  } else {
    writeJsonDurably(join(q.pending, name), m);
  }
}

export function settle(store: ProjectStore, m: QueuedMessage, state: "delivered" | "held" | "dropped", reason: string): QueuedMessage {
  const next: QueuedMessage = { ...m, state, reason };
  if (state === "delivered") next.deliveredAt = new Date().toISOString();
  saveMessage(store, next);
  return next;
}

/** Keep inbox.pending in step with the queue: present exactly while something is queued or claimed. */
export function syncInboxMarker(store: ProjectStore, target: string, pendingCount = listPending(store, target).length): void {
  const marker = inboxMarker(store, target);
  if (pendingCount > 0) {
    if (!existsSync(marker) && existsSync(sessionPaths(store, target).dir)) touchDurably(marker);
  } else {
    rmSync(marker, { force: true });
  }
}

export interface MessageDraft {
  from: Sender;
  text: string;
  keys: string[];
  about?: string;
}

/** An agent is handed at most MAX_MESSAGE_BYTES of text at once. */
export function refuseTooLarge(text: string): void {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > MAX_MESSAGE_BYTES) {
    throw new SpexError("message_too_large", `the message is ${bytes} bytes; at most ${MAX_MESSAGE_BYTES} bytes are delivered to an agent`, {
      hint: "put the details in a file in the worktree and send its path",
      details: { bytes, limit: MAX_MESSAGE_BYTES },
      httpStatus: 413,
    });
  }
}

/** Refusals that protect an agent, checked under the queue lock before anything is written. */
export function refuseOverLimits(store: ProjectStore, target: string, draft: MessageDraft, pending: QueuedMessage[]): void {
  refuseTooLarge(draft.text);
  const limit = queueDepthLimit();
  if (pending.length >= limit) {
    throw new SpexError("queue_full", `session ${shortId(target, 8)} already has ${pending.length} undelivered messages (limit ${limit})`, {
      hint: "wait for it to reach rest (`spex session wait --idle`), or check `spex session deliver` for held messages",
      details: { pending: pending.length, limit },
      httpStatus: 429,
    });
  }
  if (draft.from.kind === "watch") return;
  const key = senderKey(draft.from);
  const same = (m: QueuedMessage) => senderKey(m.from) === key && m.text === draft.text && m.keys.join(" ") === draft.keys.join(" ");
  const pendingTwin = pending.find(same);
  const recent = listSettled(store, target)
    .filter((m) => senderKey(m.from) === key && m.state === "delivered")
    .pop();
  const recentTwin = recent && same(recent) && Date.now() - Date.parse(recent.deliveredAt ?? recent.updatedAt) < REPEAT_WINDOW_MS ? recent : undefined;
  const twin = pendingTwin ?? recentTwin;
  if (twin) {
    throw new SpexError("message_repeated", `the same text from this sender is ${pendingTwin ? "still queued" : "just delivered"} as ${twin.id}`, {
      hint: `check it with \`spex session message-status ${twin.id}\`; identical text is accepted again once that one is delivered and ${REPEAT_WINDOW_MS / 1000} s have passed`,
      details: { messageId: twin.id },
      httpStatus: 429,
    });
  }
}

export function messageIdFor(target: string, n: number): string {
  return `${shortId(target, 8)}-${n}`;
}

/**
 * Add a message to a target's queue. `accept` runs under the queue lock once
 * the limits pass, with the new id, and returns the message_in sequence
 * (timeline append); nothing is written when a limit refuses.
 */
export async function enqueue(
  store: ProjectStore,
  target: string,
  draft: MessageDraft,
  accept: (messageId: string) => number,
  opts: { replaces?: (m: QueuedMessage) => boolean; takeBack?: () => void } = {},
): Promise<{ message: QueuedMessage; position: number; replaced: boolean }> {
  return withQueueLock(store, target, () => {
    const pending = listPending(store, target);
    // A notice still waiting in line is brought up to date rather than joined by another.
    const stale = opts.replaces ? pending.find((m) => m.state === "queued" && opts.replaces!(m)) : undefined;
    if (stale) {
      const message: QueuedMessage = { ...stale, text: draft.text, from: draft.from };
      saveMessage(store, message);
      return { message, position: positionOf(message, pending), replaced: true };
    }
    refuseOverLimits(store, target, draft, pending);
    const state = readQueueState(store, target);
    const n = state.next;
    const id = messageIdFor(target, n);
    const timelineSeq = accept(id);
    const now = new Date().toISOString();
    const message: QueuedMessage = {
      id,
      target,
      n,
      from: draft.from,
      text: draft.text,
      keys: draft.keys,
      ...(draft.about ? { about: draft.about } : {}),
      state: "queued",
      reason: "",
      createdAt: now,
      updatedAt: now,
      timelineSeq,
    };
    try {
      writeQueueState(store, target, { ...state, next: n + 1 });
      saveMessage(store, message);
    } catch (e) {
      // Not queued (a full disk): what accept wrote must not announce a message that will never come.
      opts.takeBack?.();
      throw e;
    }
    syncInboxMarker(store, target, pending.length + 1);
    return { message, position: positionOf(message, [...pending, message]), replaced: false };
  });
}

/** 1 means next; keys messages skip the line, so they are always 1. */
export function positionOf(m: QueuedMessage, pending: QueuedMessage[]): number {
  if (m.keys.length > 0) return 1;
  return pending.filter((p) => p.keys.length === 0 && p.n <= m.n).length;
}

/** Find a message by id in any target's queue. */
export function findMessage(store: ProjectStore, messageId: string): QueuedMessage | undefined {
  const m = /^([0-9a-f]{8})-(\d+)$/i.exec(messageId.trim());
  if (!m) {
    throw new SpexError("usage", `"${messageId}" is not a message id (like 3f2a9c1e-4)`, {
      hint: "use the id `spex session send` printed",
      exitCode: 2,
      httpStatus: 400,
    });
  }
  const prefix = m[1]!.toLowerCase();
  const name = messageFileName(Number(m[2]));
  let targets: string[];
  try {
    targets = readdirSync(store.queueDir).filter((t) => shortId(t, 8) === prefix);
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return undefined;
    throw e;
  }
  const found: QueuedMessage[] = [];
  for (const t of targets) {
    const q = queuePaths(store, t);
    for (const file of [join(q.done, name), join(q.pending, name)]) {
      const msg = readJsonFile<QueuedMessage>(file);
      if (msg && msg !== "corrupt") {
        found.push(msg);
        break;
      }
    }
  }
  if (found.length > 1) {
    throw new SpexError("message_ambiguous", `message id ${messageId} names messages to ${found.length} sessions`, {
      hint: "this needs two sessions whose ids share 8 leading digits; check `ls queue/` under SPEX_HOME",
    });
  }
  return found[0];
}

/** Each incoming message of a timeline with its delivery state now (`delivery`), for readers that show it (the dashboard). */
export function withDelivery<E extends { kind: string }>(store: ProjectStore, events: E[]): (E & { delivery?: MessageState })[] {
  return events.map((e) => {
    if (e.kind !== "message_in") return e;
    const id = (e as E & { messageId?: unknown }).messageId;
    if (typeof id !== "string" || !/^[0-9a-f]{8}-\d+$/i.test(id)) return e;
    const state = findMessage(store, id)?.state;
    return state ? { ...e, delivery: state === "claimed" ? "queued" : state } : e;
  });
}
