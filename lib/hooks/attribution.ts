// Which session a hook speaks for. SPEX_SESSION_ID picks the record, but an
// environment is inherited by anything the agent starts: Codex's shared
// app-server daemon ran every session's turns with the environment of the
// session that started it, so B's hooks arrived as A's. What the agent process
// cannot inherit from another session is its own conversation: the payload's
// `session_id` is the native id the CLI reports, and the record keeps the one
// its launch chose (claude, gemini) or its first SessionStart reported (codex).
import type { HookAction } from "../harness";
import { ancestry } from "../proc";
import type { HookPayload } from "./payload";

/**
 * - `ours`: the payload names the record's conversation (or no conversation is known on one side);
 * - `new-conversation`: the session's own agent started a fresh conversation (Claude's and
 *   Gemini's /clear send SessionStart `source: "clear"` with a new id): the record follows it;
 * - `foreign`: another conversation; the hook changes nothing.
 */
export type HookOwnership = "ours" | "new-conversation" | "foreign";

export function payloadNativeId(payload: HookPayload): string {
  return typeof payload.session_id === "string" ? payload.session_id : "";
}

// The native id is handed back to the agent as an argv operand (`--resume <id>`):
// only a plain token is recorded, never one that reads as an option or a path.
const RECORDABLE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** The payload's native id when it may be recorded, else undefined. */
export function recordableNativeId(payload: HookPayload): string | undefined {
  const native = payloadNativeId(payload);
  return RECORDABLE_ID.test(native) ? native : undefined;
}

export function hookOwnership(recordedNativeId: string, action: HookAction, payload: HookPayload, fromOwnAgent: () => boolean): HookOwnership {
  const native = payloadNativeId(payload);
  if (native === "" || recordedNativeId === "" || native === recordedNativeId) return "ours";
  // Only the process spex launched (or its children) may move the record to a new conversation.
  if (action === "start" && payload.source === "clear" && fromOwnAgent()) return "new-conversation";
  return "foreign";
}

/** Is `ancestor` this process or one of its ancestors? Bounded walk up the parent chain. */
export function descendsFrom(ancestor: number, pid = process.pid): boolean {
  return ancestor > 1 && ancestry(pid).includes(ancestor);
}
