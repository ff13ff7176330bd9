// Which panes spex governs: a pane belongs to a session when its tmux session
// name equals a record's `tmux_session` on the record's `tmux_socket`. Records
// of every project under SPEX_HOME are read once per observation.
import { type Lifecycle, type SessionRecord, publicRecord } from "../record";
import { type ProjectStore, listProjectKeys, spexHome, storeForKey } from "../store";
import { readAll } from "../sessions";
import { serverOf } from "../tmux";
import type { LiveStatus } from "./types";

export interface GovernedSession {
  store: ProjectStore;
  id: string;
  /** The record as readers see it (the readiness fence overlays the original). */
  record: SessionRecord;
  retired: boolean;
}

export interface GovernedIndex {
  sessions: GovernedSession[];
  byPane(socket: string, tmuxSession: string): GovernedSession | undefined;
}


function indexKey(socket: string, tmuxSession: string): string {
  return `${serverOf(socket)}\u0000${tmuxSession}`;
}

/** Every readable record of every project; corrupt ones own no pane here. */
export function governedIndex(home = spexHome()): GovernedIndex {
  const sessions: GovernedSession[] = [];
  for (const key of listProjectKeys(home)) {
    const probe = storeForKey(home, key, "");
    for (const reading of readAll(probe)) {
      if (reading.kind !== "ok") continue;
      const record = publicRecord(reading.record, reading.pending);
      sessions.push({ store: storeForKey(home, key, record.project_root), id: reading.id, record, retired: reading.retired });
    }
  }
  const map = new Map<string, GovernedSession>();
  for (const s of sessions) {
    if (s.record.tmux_session) map.set(indexKey(s.record.tmux_socket, s.record.tmux_session), s);
  }
  return { sessions, byPane: (socket, name) => map.get(indexKey(socket, name)) };
}

/** The live status a hook-declared lifecycle means. */
export const LIFECYCLE_STATUS: Record<Lifecycle, LiveStatus> = {
  active: "active",
  idle: "idle",
  awaiting: "idle",
  parked: "idle",
  queued: "idle",
  asking: "needs_attention",
  error: "needs_attention",
};

/** Open: governed and not archived. */
export function isOpen(s: GovernedSession): boolean {
  return !s.record.archived;
}
