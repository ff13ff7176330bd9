// The JSON every sink receives (a command on its stdin, a webhook as its
// body): which session, what it became, from what, why, and the command
// that attaches to it.
import { labelOf, shortId } from "../naming";
import { machineName } from "../live/machine";
import type { SessionRecord } from "../record";
import { shellWord } from "../tmux/quote";
import type { AttentionEvent } from "./events";

export interface BudgetFacts {
  /** Percent of the budget spent when the notification was made (80 or 100 and more). */
  percent: number;
  limitUsd: number | null;
  limitTokens: number | null;
  spentUsd: number | null;
  spentTokens: number;
  /** The session whose budget it is (a tree budget belongs to the parent). */
  owner: string;
}

export interface NotificationPayload {
  version: 1;
  event: AttentionEvent;
  session_id: string;
  short_id: string;
  label: string;
  /** The main checkout the session belongs to. */
  project: string;
  machine: string;
  /** The lifecycle now and before the transition. */
  status: string;
  previous_status: string;
  /** The note: the question asked, the error, why it parked. */
  note: string;
  proposal: string;
  /** rate_limited or auth_required, for a stall. */
  stall: string | null;
  budget: BudgetFacts | null;
  at: string;
  /** Pasteable: attaches this terminal to the session's pane. */
  attach: string;
}

/** Notes are display text of any length: a notification carries the start of it. */
const NOTE_MAX = 2000;

export function attachCommand(record: Pick<SessionRecord, "session_id" | "project_root">): string {
  const cmd = `spex session attach ${shortId(record.session_id, 8)}`;
  return record.project_root ? `cd ${shellWord(record.project_root)} && ${cmd}` : cmd;
}

export function payloadOf(event: AttentionEvent, after: SessionRecord, before: Pick<SessionRecord, "status"> | undefined, extra: { budget?: BudgetFacts; at?: Date } = {}): NotificationPayload {
  const note = after.note.length > NOTE_MAX ? `${after.note.slice(0, NOTE_MAX - 1)}…` : after.note;
  return {
    version: 1,
    event,
    session_id: after.session_id,
    short_id: shortId(after.session_id, 8),
    label: labelOf(after),
    project: after.project_root,
    machine: machineName(),
    status: after.status,
    previous_status: before?.status ?? after.status,
    note,
    proposal: after.proposal,
    stall: after.stall || null,
    budget: extra.budget ?? null,
    at: (extra.at ?? new Date()).toISOString(),
    attach: attachCommand(after),
  };
}

/** One line for a person (desktop, tmux): what happened to which session. */
export function headline(p: NotificationPayload): { title: string; body: string } {
  const what: Record<AttentionEvent, string> = {
    asking: "asks you",
    error: "stopped on an error",
    review: "proposes a merge",
    done: "is done",
    idle: "finished its turn",
    parked: "parked",
    died: "ended",
    budget: p.budget && p.budget.percent >= 100 ? "hit its budget" : `spent ${p.budget?.percent ?? 80} % of its budget`,
    rate_limited: "is rate-limited",
    auth_required: "needs a login or API key",
  };
  const body = p.note ? p.note.replace(/\s+/g, " ").slice(0, 200) : p.attach;
  return { title: `spex: ${p.label} (${p.short_id}) ${what[p.event]}`, body };
}
