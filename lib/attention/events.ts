// The transitions a person may want to hear about, derived from what a
// committed record change made readers see (pure). One change makes at most
// one event, so one transition fires at most once.
import type { RecordChange, SessionRecord } from "../record";

export const ATTENTION_EVENTS = ["asking", "error", "review", "done", "idle", "parked", "died", "budget", "rate_limited", "auth_required"] as const;
export type AttentionEvent = (typeof ATTENTION_EVENTS)[number];

/** What a sink hears when its entry names no events: everything that needs a person. */
export const PERSON_EVENTS: readonly AttentionEvent[] = ["asking", "error", "review", "died", "budget", "rate_limited", "auth_required"];

export function isAttentionEvent(v: unknown): v is AttentionEvent {
  return typeof v === "string" && (ATTENTION_EVENTS as readonly string[]).includes(v);
}

/** The note a session parked by its budget carries. */
export const BUDGET_NOTE = "budget_exceeded";

export const STALLS = ["rate_limited", "auth_required"] as const;
export type Stall = (typeof STALLS)[number];

export function isStall(v: unknown): v is Stall {
  return v === "rate_limited" || v === "auth_required";
}

type Views = Pick<RecordChange, "beforeView" | "afterView" | "reason">;

/**
 * The event a commit made, or undefined. A stall that appeared is its own
 * event; the agent process ending while spex did not stop it is `died`
 * (a hook wrote it; `stop` and `archive` write with their own reasons).
 */
export function eventOfChange(change: Views): AttentionEvent | undefined {
  const b: SessionRecord = change.beforeView;
  const a: SessionRecord = change.afterView;
  if (isStall(a.stall) && a.stall !== b.stall) return a.stall;
  if (a.stopped && !b.stopped) return change.reason === "state" ? "died" : undefined;
  if (a.stopped || a.archived) return undefined;
  const moved = a.status !== b.status || a.proposal !== b.proposal || a.note !== b.note;
  if (!moved) return undefined;
  // Parked by its budget: the budget check notifies itself, with the figures (lib/attention/enforce).
  if (a.status === "parked" && a.note === BUDGET_NOTE) return undefined;
  if (a.proposal === "merge" && b.proposal !== "merge") return "review";
  if ((a.proposal === "nothing" || a.proposal === "close") && a.proposal !== b.proposal) return "done";
  switch (a.status) {
    case "asking":
      // A new question while asking is a new transition; the same one again is not.
      return b.status !== "asking" || a.note !== b.note ? "asking" : undefined;
    case "error":
      return b.status !== "error" ? "error" : undefined;
    case "parked":
      return b.status !== "parked" ? "parked" : undefined;
    case "idle":
    case "awaiting":
      return b.status === "active" ? "idle" : undefined;
    default:
      return undefined;
  }
}
