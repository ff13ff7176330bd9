// Lifecycle declarations: the agent's own `done/park/ask` and the hooks'
// `internal session-state` land through this one path into the one writer.
import { SpexError } from "../errors";
import { type Declaration, type Lifecycle, type Proposal, type RecordChange, type SessionRecord, isLifecycle, isProposal, updateRecord } from "../record";
import type { ProjectStore } from "../store";

export interface StateDeclaration {
  status: Lifecycle;
  /** undefined leaves the proposal as it is. */
  proposal?: Proposal;
  /** undefined leaves the note as it is. */
  note?: string;
  /** A new turn starts: a proposal, note and stop from the previous turn are stale. */
  newTurn?: boolean;
  /** The agent process ended (SessionEnd). */
  stopped?: boolean;
  /** The agent's own declaration (done, park, ask): it stands until a new turn. */
  declared?: Declaration;
  /**
   * Inferred by a hook rather than declared: it yields to a standing
   * declaration (only `stopped` may still change) and, with `onlyFrom`,
   * applies only to those lifecycles.
   */
  inferred?: boolean;
  onlyFrom?: Lifecycle[];
  /** Inferred about a running agent: a stopped or archived record is left as it is. */
  onlyRunning?: boolean;
  /** What holds the agent up (rate_limited, auth_required: lib/attention), set in the same write. */
  stall?: string;
  /**
   * A record to leave as it is, judged under the record's lock: a hook's news
   * that a stop overtook between the hook's first look and its write.
   */
  unless?: (record: SessionRecord) => boolean;
}

export function parseLifecycle(value: string): Lifecycle {
  if (!isLifecycle(value)) {
    throw new SpexError("usage", `"${value}" is not a lifecycle state (active, idle, awaiting, parked, asking, error, queued)`, {
      exitCode: 2,
      httpStatus: 400,
    });
  }
  return value;
}

export function parseProposal(value: string): Proposal {
  if (!isProposal(value) || value === "") {
    throw new SpexError("usage", `"${value}" is not a proposal (merge, nothing, close)`, { exitCode: 2, httpStatus: 400 });
  }
  return value;
}

export async function declareState(store: ProjectStore, id: string, d: StateDeclaration): Promise<RecordChange | undefined> {
  return updateRecord(
    store,
    id,
    (record) => {
      if (d.unless?.(record)) return undefined;
      const stands =
        d.inferred &&
        !d.newTurn &&
        (record.declared !== "" || (d.onlyFrom !== undefined && !d.onlyFrom.includes(record.status)) || (d.onlyRunning === true && (record.stopped || record.archived)));
      if (stands) {
        // The declaration that landed first is authoritative: a hook may only record that the process ended.
        return d.stopped === undefined || d.stopped === record.stopped ? undefined : { ...record, stopped: d.stopped, ...(d.stopped ? { ports: "" } : {}) };
      }
      const next = { ...record, status: d.status };
      if (d.newTurn) {
        next.proposal = "";
        next.note = "";
        next.stopped = false;
        next.declared = "";
      }
      if (d.declared !== undefined) next.declared = d.declared;
      if (d.proposal !== undefined) next.proposal = d.proposal;
      if (d.note !== undefined) next.note = d.note;
      if (d.stopped !== undefined) next.stopped = d.stopped;
      // An agent that ended gives its port block back (lib/workspace).
      if (next.stopped && !record.stopped) next.ports = "";
      // A Stop with a standing proposal parks the session as awaiting review.
      if (next.status === "idle" && next.proposal !== "") next.status = "awaiting";
      // An agent at work again, at rest, asking — anything but failing — or the user's new turn is past what stalled it (lib/attention).
      if (next.status !== "error" || d.newTurn) delete next.stall;
      if (d.stall) next.stall = d.stall;
      const same =
        next.status === record.status &&
        next.proposal === record.proposal &&
        next.note === record.note &&
        next.stopped === record.stopped &&
        next.declared === record.declared &&
        next.stall === record.stall;
      return same ? undefined : next;
    },
    { reason: "state", purpose: `state ${d.status} ${id}` },
  );
}

export interface DeclarationResult {
  id: string;
  status: Lifecycle;
  proposal: string;
  /** False when the record already said so. */
  changed: boolean;
}

/** An agent's own declaration (done, park, ask) and the answer every front gives for it. */
export async function declareOwnState(store: ProjectStore, id: string, d: StateDeclaration): Promise<{ result: DeclarationResult; change: RecordChange | undefined }> {
  const change = await declareState(store, id, d);
  return { result: { id, status: d.status, proposal: change?.after.proposal ?? d.proposal ?? "", changed: change !== undefined }, change };
}
