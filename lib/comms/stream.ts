// `spex session watch stream`: follow timelines live, for orchestrators that
// want every event rather than one wake-up. New sessions join as they appear
// (when no selector narrows the stream).
import { existsSync, watch, type FSWatcher } from "node:fs";
import { type ProjectStore, listSessionIds, sessionPaths } from "../store";
import { touchDurably } from "./files";
import { type TimelineEvent, eventsAfter, lastSeq } from "./timeline";

export interface StreamOptions {
  /** Session ids to follow; undefined follows every session, including new ones. */
  targets?: string[];
  /** Start from the beginning of each timeline instead of now. */
  replay?: boolean;
  /** Stop after this many events. */
  limit?: number;
  pollMs?: number;
  signal?: AbortSignal;
  onEvent(event: TimelineEvent & { session: string }): void;
}

export type StreamEnd = "stopped" | "limit" | "gone";

export async function streamEvents(store: ProjectStore, opts: StreamOptions): Promise<StreamEnd> {
  const cursors = new Map<string, number>();
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
      const batch: Array<TimelineEvent & { session: string }> = [];
      for (const [id, after] of cursors) {
        const evs = eventsAfter(store, id, after);
        if (evs.length === 0) continue;
        cursors.set(id, evs[evs.length - 1]!.seq);
        for (const e of evs) batch.push({ ...e, session: id });
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
