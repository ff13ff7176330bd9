// The handover (DESIGN.md §1.11, §7): under the queue lock pick the next
// message, check the target is alive and at rest, and write a claim durably;
// release; paste (bracketed, paste-safe text, skipped inside tmux if the pane
// died) and press Enter once the paste echoes; settle under the lock again. A
// claim whose owner died is never retried: it becomes `held`, so nothing is
// typed twice. A dead target's messages are `held` too, never pasted.
import { harnessAdapter, isHarnessName } from "../harness";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ownerAlive, selfIdentity } from "../proc";
import { type RecordReading, type SessionRecord, publicRecord, readSession } from "../record";
import { type ProjectStore, isSessionId } from "../store";
import { capturePane, pasteText, sendKeys, sessionPane, spexSocket } from "../tmux";
import { SHELL_NOTICE, runsTypedText, typedText } from "./envelope";
import { readJsonFile } from "./files";
import { inboxMarker, messageFileName, queuePaths } from "./paths";
import {
  type MessageState,
  type QueuedMessage,
  listPending,
  readQueueState,
  saveMessage,
  settle,
  syncInboxMarker,
  withQueueLock,
  writeQueueState,
} from "./queue";
import { deathOf, readRest, recordAtRest } from "./rest";
import { isRevoked } from "./revoke";
import { composerEcho, pasteEchoed, screenAtRest } from "./screen";
import { composerLeftover, suspectComposer } from "./composer";
import { scheduleDrain } from "./spawn";
import { lastSeq } from "./timeline";
import { randomHex } from "../hash";

export interface HandoverOutcome {
  messageId: string;
  state: MessageState;
  reason: string;
}

export interface DrainReport {
  target: string;
  outcomes: HandoverOutcome[];
  /** Why the queue stopped with messages left, when it did. */
  blocked: string;
  remaining: number;
}

export interface DrainOptions {
  /** Drain in this process (default: hand it to a detached `spex session deliver`). */
  wait?: boolean;
  /** How long to keep retrying while the record is at rest but the screen is not yet. */
  patienceMs?: number;
}

interface Pane {
  socket: string;
  target: string;
  dead: boolean;
  /** The target's harness: what is typed depends on it (envelope.ts). */
  harness: string;
  /** Quiet time the harness needs between input and Enter. */
  quietMs: number;
}

function echoTimeoutMs(): number {
  const v = Number(process.env.SPEX_ECHO_TIMEOUT_MS);
  return Number.isFinite(v) && v > 0 ? v : 5000;
}

function paneOf(view: SessionRecord): Pane | undefined {
  if (!view.tmux_session) return undefined;
  const socket = view.tmux_socket || spexSocket();
  // Pane commands do not take an exact `=name` session target: address the pane by its id.
  const pane = sessionPane(socket, view.tmux_session);
  return pane ? { socket, target: pane.id, dead: pane.dead, harness: view.harness, quietMs: isHarnessName(view.harness) ? harnessAdapter(view.harness).submitQuietMs : 0 } : undefined;
}

export const RECIPIENT_STOPPED = "recipient stopped; delivered on resume";
export const RECIPIENT_QUEUED = "recipient waits in the launch queue; delivered once it starts";
const WAITING = new Set([RECIPIENT_STOPPED, RECIPIENT_QUEUED]);

/** Why the recipient takes no message until it runs again, or "" (a launch under way is only starting). */
function waitingFor(reading: Extract<RecordReading, { kind: "ok" }>): string {
  if (reading.pending || !reading.record.stopped) return "";
  return reading.record.status === "queued" ? RECIPIENT_QUEUED : RECIPIENT_STOPPED;
}

/** Under the queue lock: the waiting reason onto each queued message, or off once it no longer holds. */
function labelWaiting(store: ProjectStore, pending: QueuedMessage[], waiting: string): void {
  for (const m of pending) {
    if (m.state !== "queued" || m.reason === waiting || (!waiting && !WAITING.has(m.reason))) continue;
    m.reason = waiting;
    saveMessage(store, m);
  }
}

type Step =
  | { kind: "claimed"; message: QueuedMessage; pane: Pane; before: string; settled: HandoverOutcome[] }
  | { kind: "stop"; reason: string; retry: boolean; settled: HandoverOutcome[]; remaining: number };

function outcome(m: QueuedMessage): HandoverOutcome {
  return { messageId: m.id, state: m.state, reason: m.reason };
}

async function claimNext(store: ProjectStore, target: string): Promise<Step> {
  return withQueueLock(store, target, () => {
    const settled: HandoverOutcome[] = [];
    let pending = listPending(store, target);
    for (const m of pending.filter((p) => p.state === "claimed")) {
      if (m.claim && ownerAlive(m.claim)) {
        return { kind: "stop", reason: `${m.id} is being handed over by pid ${m.claim.pid}`, retry: false, settled, remaining: pending.length };
      }
      const held = settle(store, m, "held", `the process that claimed it (pid ${m.claim?.pid ?? "?"}) died before pressing Enter; it may sit unsent in the composer, so it is not typed again`);
      settled.push(outcome(held));
      // Its text may have landed: nothing more is typed until the composer is proven clear of it.
      if (m.keys.length === 0) suspectComposer(store, target, m);
    }
    pending = pending.filter((p) => p.state === "queued");
    // One consistent reading decides "at rest" (timeline, then record): see readRest.
    const rest = readRest(store, target);
    const reading = rest.reading;
    const keep: QueuedMessage[] = [];
    for (const m of pending) {
      if (reading.kind === "absent") settled.push(outcome(settle(store, m, "dropped", "the target session is gone (closed)")));
      else if (m.from.kind === "session" && isRevoked(store, m.from.id)) {
        settled.push(outcome(settle(store, m, "dropped", "its sender was closed before it was handed over")));
      } else if (m.from.kind === "watch" && reading.kind === "ok" && runsTypedText(reading.record.harness)) {
        settled.push(outcome(settle(store, m, "dropped", SHELL_NOTICE)));
      } else keep.push(m);
    }
    pending = keep;
    const stop = (reason: string, retry = false): Step => {
      syncInboxMarker(store, target, pending.length);
      return { kind: "stop", reason, retry, settled, remaining: pending.length };
    };
    if (pending.length === 0) return stop("");
    if (reading.kind !== "ok") return stop(`the record is ${reading.kind}`);
    // A recipient that is not running keeps its messages queued, saying so on each (message-status, the snapshot).
    const waiting = waitingFor(reading);
    labelWaiting(store, pending, waiting);
    if (waiting) return stop(waiting);
    const view = publicRecord(reading.record, reading.pending);
    const pane = paneOf(view);
    if (!pane) return stop("the session has no tmux pane (not running)");
    // Never paste into a dead pane (tmux 3.3a crashes): checked here, under the queue lock, and again inside tmux at the paste.
    const death = deathOf(reading, () => ({ id: pane.target, dead: pane.dead }));
    if (death) {
      for (const m of pending) settled.push(outcome(settle(store, m, "held", `not handed over: ${death}; nothing was typed`)));
      pending = [];
      return stop("");
    }
    const head = pending.find((m) => m.keys.length > 0) ?? pending[0]!;
    const before = capturePane(pane.socket, pane.target) ?? "";
    if (head.keys.length === 0) {
      const atRest = recordAtRest(rest, readQueueState(store, target));
      if (!atRest.ok) return stop(atRest.reason);
      const screen = screenAtRest(view.harness, before);
      if (!screen.atRest) return stop(`the screen is not at rest: ${screen.reason}`, true);
      // Keys go through regardless: they answer dialogs, and clear a composer by hand.
      const leftover = composerLeftover(store, target, before);
      if (leftover) return stop(leftover);
    }
    syncInboxMarker(store, target, pending.length);
    const self = selfIdentity();
    const claimed: QueuedMessage = {
      ...head,
      state: "claimed",
      reason: `being handed over by pid ${self.pid}`,
      claim: {
        pid: self.pid,
        start: self.start,
        boot: self.boot,
        at: new Date().toISOString(),
        seq: lastSeq(store, target),
        nonce: randomHex(6),
        ...(head.keys.length === 0 ? { echo: composerEcho(before, typedText(head, pane.harness)) } : {}),
      },
    };
    saveMessage(store, claimed);
    return { kind: "claimed", message: claimed, pane, before, settled };
  });
}

/** Test hook for the kill -9 proofs: SPEX_TEST_CRASH_AT=claim|paste. */
function crashPoint(point: "claim" | "paste"): void {
  if (process.env.SPEX_TEST_CRASH_AT === point) process.kill(process.pid, "SIGKILL");
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `leftover`: held with its text perhaps in the composer, unsent (pasted, Enter never pressed). */
type Handed = { state: "delivered" | "held"; reason: string; leftover?: boolean } | { state: "queued"; reason: string };

async function handOver(m: QueuedMessage, pane: Pane, before: string): Promise<Handed> {
  crashPoint("claim");
  if (m.keys.length > 0) {
    const r = sendKeys(pane.socket, pane.target, m.keys);
    return r.code === 0 ? { state: "delivered", reason: "" } : { state: "held", reason: `tmux refused the keys: ${r.stderr.trim()}` };
  }
  const text = typedText(m, pane.harness);
  const pasted = pasteText(pane.socket, pane.target, text, `spex-${m.id}`);
  if (pasted.paneDead) return { state: "held", reason: `not handed over: the pane ${pane.target} died just before the paste; nothing was typed` };
  if (pasted.code !== 0) return { state: "queued", reason: `tmux could not paste (${pasted.stderr.trim()}); nothing was typed` };
  crashPoint("paste");
  const deadline = Date.now() + echoTimeoutMs();
  let echoed = false;
  for (let delay = 5; ; delay = Math.min(delay * 2, 80)) {
    const now = capturePane(pane.socket, pane.target);
    if (now === undefined) return { state: "held", reason: "the pane vanished after the paste; Enter was not pressed" };
    if (pasteEchoed(before, now, text)) {
      echoed = true;
      break;
    }
    if (Date.now() > deadline) break;
    await sleep(delay);
  }
  if (!echoed) {
    return { state: "held", leftover: true, reason: `pasted, but the text did not show on screen within ${echoTimeoutMs()} ms, so Enter was not pressed; it may sit in the composer` };
  }
  // Some composers read an Enter that follows input too closely as a newline (Gemini).
  if (pane.quietMs > 0) await sleep(pane.quietMs);
  const enter = sendKeys(pane.socket, pane.target, ["Enter"]);
  if (enter.code !== 0) return { state: "held", leftover: true, reason: `pasted, but Enter failed: ${enter.stderr.trim()}` };
  return { state: "delivered", reason: "" };
}

async function finish(store: ProjectStore, claimed: QueuedMessage, handed: Handed): Promise<HandoverOutcome> {
  return withQueueLock(store, claimed.target, () => {
    const file = join(queuePaths(store, claimed.target).pending, messageFileName(claimed.n));
    const current = readJsonFile<QueuedMessage>(file);
    // Only the claim's owner settles it; anything else means another process already decided.
    if (!current || current === "corrupt" || current.state !== "claimed" || current.claim?.nonce !== claimed.claim?.nonce) {
      return { messageId: claimed.id, state: current && current !== "corrupt" ? current.state : "held", reason: "settled by another process" };
    }
    let result: QueuedMessage;
    if (handed.state === "queued") {
      result = { ...current, state: "queued", reason: handed.reason };
      delete result.claim;
      saveMessage(store, result);
    } else {
      // The handover mark lands before the message leaves pending/, so a lock-free reader
      // (wait --idle) never sees an empty queue without the turn still owed for it.
      if (handed.state === "delivered" && current.keys.length === 0) {
        const q = readQueueState(store, claimed.target);
        writeQueueState(store, claimed.target, { ...q, lastHandover: { messageId: current.id, claimSeq: current.claim!.seq, at: new Date().toISOString() } });
      }
      result = settle(store, current, handed.state, handed.reason);
      if (handed.state === "held" && handed.leftover) suspectComposer(store, claimed.target, current);
    }
    syncInboxMarker(store, claimed.target);
    return outcome(result);
  });
}

/** Hand over what can be handed over now, in order, in this process. */
export async function drainNow(store: ProjectStore, target: string, patienceMs = 0): Promise<DrainReport> {
  const outcomes: HandoverOutcome[] = [];
  const deadline = Date.now() + patienceMs;
  for (;;) {
    const step = await claimNext(store, target);
    outcomes.push(...step.settled);
    if (step.kind === "stop") {
      if (step.retry && step.remaining > 0 && Date.now() < deadline) {
        await sleep(150);
        continue;
      }
      return { target, outcomes, blocked: step.remaining > 0 ? step.reason : "", remaining: step.remaining };
    }
    let handed: Handed;
    try {
      handed = await handOver(step.message, step.pane, step.before);
    } catch (e) {
      // Whatever reached the pane is unknown: settle it held rather than leave a claim behind.
      handed = { state: "held", leftover: step.message.keys.length === 0, reason: `the handover failed: ${(e as Error).message}` };
    }
    const done = await finish(store, step.message, handed);
    outcomes.push(done);
    if (done.state === "queued") return { target, outcomes, blocked: done.reason, remaining: listPending(store, target).length };
  }
}

/**
 * Drain a session's queue. By default (hooks, observers) it only starts a
 * detached `spex session deliver` when something is queued, so the caller
 * never waits on a paste into the pane that may be running it.
 */
export async function drainDeliveries(store: ProjectStore, id: string, opts: DrainOptions = {}): Promise<DrainReport | undefined> {
  if (!opts.wait) {
    if (existsSync(inboxMarker(store, id))) await scheduleDrain(store, id, opts.patienceMs);
    return undefined;
  }
  return drainNow(store, id, opts.patienceMs ?? 0);
}

/**
 * Start a detached drain for every session of the project that has messages
 * waiting and is at rest by its record: a message whose drain gave up (the
 * screen was not ready in time) is picked up by the next spex command that
 * calls this, without any monitor loop.
 */
export async function kickWaitingQueues(store: ProjectStore, except?: string): Promise<number> {
  let started = 0;
  let names: string[];
  try {
    names = readdirSync(store.sessionsDir);
  } catch {
    return 0;
  }
  for (const id of names) {
    if (id === except || !isSessionId(id) || !existsSync(inboxMarker(store, id))) continue;
    const reading = readSession(store, id);
    if (reading.kind !== "ok" || reading.pending) continue;
    const view = publicRecord(reading.record, reading.pending);
    if ((view.status === "idle" || view.status === "awaiting") && !view.stopped && !view.archived && (await scheduleDrain(store, id, 1000))) started++;
  }
  return started;
}
