// A timeline event in words a person reads ("asked: which db?", "message
// from ops delivered: use postgres") rather than its field names. Pure: the
// page passes a way to name other sessions.
import type { Row, Sender, TimelineEvent } from "./types";

export type NameOf = (id: string) => string;

function who(from: Sender, nameOf: NameOf): string {
  switch (from.kind) {
    case "session":
    case "watch":
      return from.label || nameOf(from.id);
    case "name":
      return from.name;
    default:
      return "you";
  }
}

const withNote = (what: string, note: string): string => (note ? `${what}: ${note}` : what);

function stateWords(e: Extract<TimelineEvent, { kind: "state" }>): string {
  const parts: string[] = [];
  switch (e.status) {
    case "asking":
      parts.push(withNote("asked", e.note || "a question (see its screen)"));
      break;
    case "parked":
      parts.push(withNote("parked", e.note));
      break;
    case "awaiting":
    case "idle":
      if (e.proposal === "merge") parts.push(withNote("finished and proposes merging", e.note));
      else if (e.proposal === "close") parts.push(withNote("finished and proposes closing", e.note));
      else if (e.proposal === "nothing") parts.push(withNote("finished with nothing to land", e.note));
      else parts.push(e.prev === "active" ? "finished its turn" : withNote("is idle", e.note));
      break;
    case "active":
      parts.push(e.prev === "asking" ? "got its answer and went on working" : "started working");
      break;
    case "error":
      parts.push(withNote("hit an error", e.note));
      break;
    case "queued":
      parts.push("was queued to launch");
      break;
    default:
      parts.push(withNote(`is ${e.status}`, e.note));
  }
  if (e.stopped) parts.push("stopped");
  if (e.archived) parts.push("archived");
  return parts.join(", ");
}

export function eventWords(e: TimelineEvent & { delivery?: string }, nameOf: NameOf): string {
  switch (e.kind) {
    case "state":
      return stateWords(e);
    case "message_in": {
      const state = e.delivery ? ` ${e.delivery}` : "";
      const body = e.text !== undefined ? e.text : `keys ${(e.keys ?? []).join(" ")}`;
      return `message from ${who(e.from, nameOf)}${state}: ${body}`;
    }
    case "message_out":
      return `sent a message to ${nameOf(e.to)}`;
    case "merge": {
      if (e.landing === "none") return `found already on ${e.into}: its changes were there`;
      const how = e.landing === "merge-commit" ? "merge commit" : e.landing;
      const work = e.workCommit ? ", its uncommitted work committed first" : "";
      return `merged into ${e.into} (${how}, ${e.commits} commit${e.commits === 1 ? "" : "s"}${work})`;
    }
    default:
      return `${String(e.kind)} event`;
  }
}

/** What a row says beside its status: the question an asking session waits on, a parked or proposing session's note. */
export function rowNote(row: { display: string; lifecycle: string; proposal: string; note: string }): string {
  if (row.lifecycle === "asking" || row.display === "asking") return `asks: ${row.note || "(see its screen)"}`;
  if (row.display === "parked") return withNote("parked", row.note);
  if (row.proposal === "merge" && row.display === "review") return withNote("proposes merge", row.note);
  if (row.display === "error") return withNote("error", row.note);
  return row.note;
}

/** Statuses that stand for the agent's proposal, which outlives the agent itself. */
const PROPOSALS = new Set(["review", "done", "close-pending"]);

/** What a row's status says besides its display status: its place in the queue, merged, a proposal's agent gone and why, archived. */
export function statusTags(row: Row): string[] {
  if (row.kind !== "ok") return [];
  const tags: string[] = [];
  if (row.queuePosition !== null && row.queuePosition !== undefined) tags.push(`#${row.queuePosition} in queue`);
  if (row.merged) tags.push("merged");
  if (row.liveness === "offline" && PROPOSALS.has(row.display)) tags.push("offline");
  // Why the agent is gone, as ls says it (machine_restarted, tmux_server_gone, agent_exited, killed); the table shows it here only below 760 px.
  if (row.offlineReason) tags.push(row.offlineReason);
  if (row.archived) tags.push("archived");
  return tags;
}

/** A running session's port block (`first-last`, as SPEX_PORTS says it), "" without one; and the first port, to sort by. */
export function portsText(row: { ports?: string | null }): string {
  return row.ports ?? "";
}

export function firstPort(row: { ports?: string | null }): number {
  return Number(row.ports?.split("-")[0] ?? 0) || 0;
}
