// `spex session send` and `spex session wait` as functions of their
// selectors: what the CLI commands and the MCP tools session_send and
// session_wait both call, so the two fronts resolve, refuse and wait alike.
import { SpexError } from "../errors";
import type { DisplayStatus } from "../record";
import { matchSelector, readAll, resolveSelector } from "../sessions";
import { type ProjectStore, listSessionIds } from "../store";
import { kickWaitingQueues } from "./deliver";
import { type SendResult, type SenderInput, sendMessage } from "./send";
import { type WaitResult, waitForTargets } from "./wait";

export interface SendToInput {
  from: SenderInput;
  text: string;
  keys?: string[];
  /** Try the handover now (default true). */
  deliver?: boolean;
  /** The message (sent to this sender by the target) this one answers. */
  replyTo?: string;
}

export async function sendToSelector(store: ProjectStore, selector: string, input: SendToInput): Promise<SendResult> {
  const target = resolveSelector(store, selector).id;
  const result = await sendMessage(store, { target, from: input.from, text: input.text, keys: input.keys ?? [], deliver: input.deliver, replyTo: input.replyTo });
  // Other queues whose earlier drain gave up get another chance.
  await kickWaitingQueues(store, target);
  return result;
}

export interface WaitOnInput {
  /** Sessions to wait on (any selector); none: every session of the project but the caller's own. */
  selectors: string[];
  idle?: boolean;
  until?: DisplayStatus[];
  all?: boolean;
  timeoutMs?: number;
  /** Resume cursor name; undefined waits from now. */
  cursorKey?: string;
  /** The caller: never woken by its own messages, never waiting on itself. */
  self: { id?: string; name?: string };
  /** Ends the wait, moving no cursor, when the caller gives up. */
  signal?: AbortSignal;
  /** Looks at the running targets' panes for what no hook reports (lib/attention's stall probe); passed by the caller. */
  probe?: (ids: string[]) => Promise<unknown>;
}

export async function waitOnSelectors(store: ProjectStore, input: WaitOnInput): Promise<WaitResult> {
  const own = input.self.id;
  const readings = readAll(store);
  const targets = input.selectors.length > 0
    ? [...new Set(input.selectors.map((s) => matchSelector(readings, s).id))]
    : listSessionIds(store).filter((id) => id !== own);
  if (targets.length === 0) {
    throw new SpexError("nothing_to_wait_on", "there is no other session in this project to wait on", {
      hint: "create one with `spex session new`, or name the sessions to wait on",
    });
  }
  // Messages whose earlier drain gave up get another chance before we park.
  await kickWaitingQueues(store);
  return waitForTargets(store, { targets, idle: input.idle, until: input.until, all: input.all, timeoutMs: input.timeoutMs, cursorKey: input.cursorKey, self: input.self, signal: input.signal, probe: input.probe });
}
