// `spex session watch stream`: follow timelines live, for orchestrators that
// want every event rather than one wake-up. New sessions join as they appear
// (when no selector narrows the stream).
import { existsSync, watch, type FSWatcher } from "node:fs";
import { labelOf, shortId } from "../naming";
import { readSession } from "../record";
import { type ProjectStore, listSessionIds, sessionPaths } from "../store";
import { touchDurably } from "./files";
import { type Sender, type TimelineEvent, eventsAfter, lastSeq } from "./timeline";

export interface StreamOptions {
  /** Session ids to follow; undefined follows every session, including new ones. */
  targets?: string[];
  /** Start from the beginning of each timeline instead of now. */
  replay?: boolean;
  /** Stop after this many events. */
  limit?: number;
  pollMs?: number;
  signal?: AbortSignal;
  onEvent(event: StreamEvent): void;
}

/** A timeline event as the stream prints it: with the session's id and its label (what `ls` shows). */
export type StreamEvent = TimelineEvent & { session: string; label: string };

/**
 * Labels read from the records as events arrive (a rename shows from the next
 * event on); a session closed meanwhile keeps the label it was last seen with,
 * one never seen reads as its short id.
 */
export function streamLabeler(store: ProjectStore): (id: string) => string {
  const known = new Map<string, string>();
  return (id) => {
    const r = readSession(store, id);
    if (r.kind === "ok") known.set(id, labelOf(r.record));
    return known.get(id) ?? shortId(id, 8);
  };
}

function senderText(from: Sender, label: (id: string) => string): string {
  switch (from.kind) {
    case "session":
    case "watch":
      return `${from.label || label(from.id)} (${shortId(from.id, 8)})${from.kind === "watch" ? " [watch]" : ""}`;
    case "name":
      return from.name;
    case "user":
      return "a person";
  }
}

/** One line for a person: when, which session (label and short id), what happened. */
export function describeStreamEvent(e: StreamEvent, label: (id: string) => string): string {
  const who = `${e.label} (${shortId(e.session, 8)})`;
  switch (e.kind) {
    case "state":
      return `${e.at} ${who} ${e.prev} -> ${e.status}${e.proposal ? ` (proposes ${e.proposal})` : ""}${e.stopped ? " stopped" : ""}${e.archived ? " archived" : ""}`;
    case "message_in":
      return `${e.at} ${who} <- ${e.messageId} from ${senderText(e.from, label)}`;
    case "message_out":
      return `${e.at} ${who} -> ${e.messageId} to ${label(e.to)} (${shortId(e.to, 8)})`;
    case "merge":
      return e.landing === "none" ? `${e.at} ${who} found ${e.branch} already on ${e.into}` : `${e.at} ${who} merged ${e.branch} into ${e.into} (${e.landing})`;
  }
}

export type StreamEnd = "stopped" | "limit" | "gone";

export async function streamEvents(store: ProjectStore, opts: StreamOptions): Promise<StreamEnd> {
  const cursors = new Map<string, number>();
  const label = streamLabeler(store);
  const watchers = new Map<string, FSWatcher>();
  let dirty = false;
  let wake: (() => void) | undefined;
  const poke = () => {
    dirty = true;
    wake?.();
  };
  const follow = (dir: string, key: string) => {
    if (watchers.has(key)) return;
    try {
      const w = watch(dir, poke);
      w.on("error", poke);
      watchers.set(key, w);
    } catch {
      // the poll covers a folder we cannot watch
    }
  };
  const sessions = () => opts.targets ?? listSessionIds(store);
  const start = (id: string, initial: boolean) => {
    // Sessions present at start begin now (or at 0 with --replay); later ones from their first event.
    cursors.set(id, initial && !opts.replay ? lastSeq(store, id) : 0);
    follow(sessionPaths(store, id).dir, id);
  };
  for (const id of sessions()) start(id, true);
  if (!opts.targets) follow(store.sessionsDir, "*");
  if (process.env.SPEX_TEST_WAIT_ARMED) touchDurably(process.env.SPEX_TEST_WAIT_ARMED);

  const pollMs = opts.pollMs ?? (Number(process.env.SPEX_WAIT_POLL_MS) || 1000);
  let sent = 0;
  opts.signal?.addEventListener("abort", poke);
  try {
    for (;;) {
      dirty = false;
      if (opts.signal?.aborted) return "stopped";
      if (!existsSync(store.dir)) return "gone";
      for (const id of sessions()) if (!cursors.has(id)) start(id, false);
      const batch: StreamEvent[] = [];
      for (const [id, after] of cursors) {
        const evs = eventsAfter(store, id, after);
        if (evs.length === 0) continue;
        cursors.set(id, evs[evs.length - 1]!.seq);
        const named = label(id);
        for (const e of evs) batch.push({ ...e, session: id, label: named });
      }
      batch.sort((a, b) => (a.at === b.at ? 0 : a.at < b.at ? -1 : 1));
      for (const e of batch) {
        opts.onEvent(e);
        if (opts.limit !== undefined && ++sent >= opts.limit) return "limit";
      }
      if (dirty) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  } finally {
    for (const w of watchers.values()) w.close();
  }
}
