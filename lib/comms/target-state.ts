// Where a waited-on session stands now (DESIGN.md §7): its record's status and
// display status, whether `--idle` would call it at rest, and whether it died
// (its agent or pane is gone while the record says it runs).
import { labelOf, shortId } from "../naming";
import { type DisplayStatus, type Liveness, displayStatus, publicRecord, recordLiveness } from "../record";
import type { ProjectStore } from "../store";
import { type PaneState, serverPanes, spexSocket } from "../tmux";
import { listPending, readQueueState } from "./queue";
import { type PaneFact, deathOf, readRest, recordAtRest, runsInTmux } from "./rest";

export interface TargetState {
  id: string;
  shortId: string;
  label: string;
  status: string;
  /** The display status `ls` shows (the `--until` vocabulary). */
  display: DisplayStatus;
  liveness: Liveness;
  proposal: string;
  note: string;
  stopped: boolean;
  archived: boolean;
  atRest: boolean;
  pendingMessages: number;
  gone: boolean;
  /** The record says its agent runs in tmux (launched; not starting, stopped or archived). */
  running: boolean;
  /** The record says it runs, but its agent, pane or tmux session is gone. */
  died: boolean;
  diedReason: string;
  /** What holds it up (rate_limited, auth_required: lib/attention), or "". */
  stall: string;
}

/** tmux facts about panes, one `list-panes -a` per server, kept for `ttlMs` (0: asked afresh each time). */
export class PaneLookup {
  private cache = new Map<string, { at: number; panes: Map<string, PaneState> | undefined }>();
  constructor(private readonly ttlMs = 0) {}

  fact(socket: string, session: string): PaneFact {
    const key = socket || spexSocket();
    let hit = this.cache.get(key);
    if (!hit || Date.now() - hit.at >= this.ttlMs) {
      hit = { at: Date.now(), panes: serverPanes(key) };
      this.cache.set(key, hit);
    }
    if (!hit.panes) return "unknown";
    return hit.panes.get(session) ?? "gone";
  }

  forget(): void {
    this.cache.clear();
  }
}

export function targetState(store: ProjectStore, id: string, panes: PaneLookup = new PaneLookup()): TargetState {
  const rest = readRest(store, id);
  const reading = rest.reading;
  const base = { id, shortId: shortId(id, 8) };
  if (reading.kind !== "ok") {
    return {
      ...base,
      label: base.shortId,
      status: reading.kind,
      display: "corrupt",
      liveness: "unknown",
      proposal: "",
      note: "",
      stopped: false,
      archived: false,
      atRest: false,
      pendingMessages: 0,
      gone: reading.kind === "absent",
      running: false,
      died: false,
      diedReason: "",
      stall: "",
    };
  }
  const view = publicRecord(reading.record, reading.pending);
  const pending = listPending(store, id).length;
  const diedReason = deathOf(reading, () => panes.fact(view.tmux_socket, view.tmux_session));
  // A death just proved wins over a shown look that may predate it (`ps`'s table, docs/platforms.md).
  const liveness = reading.retired || diedReason !== "" ? "offline" : recordLiveness(view, reading.pending !== null);
  return {
    ...base,
    label: labelOf(view),
    status: view.status,
    display: displayStatus(reading, liveness),
    liveness,
    proposal: view.proposal,
    note: view.note,
    // Waiting for a launch slot, or launching, is not stopped: a waiter keeps waiting for it to start.
    stopped: view.stopped && reading.pending === null && view.status !== "queued",
    archived: view.archived,
    atRest: recordAtRest(rest, readQueueState(store, id)).ok && pending === 0,
    pendingMessages: pending,
    gone: false,
    running: runsInTmux(reading),
    died: diedReason !== "",
    diedReason,
    stall: view.stall ?? "",
  };
}
