// What changed in the project, for /api/events. Changes made in this process
// arrive through the record's commit observers; changes made by other
// processes (CLI verbs, agent hooks) are noticed by watching the session
// folders, with a poll as the fallback where the watch is lost or unavailable.
import { type FSWatcher, readdirSync, statSync, watch } from "node:fs";
import { errnoCode } from "../errors";
import { registerCommitObserver, readSession } from "../record";
import { rowOf } from "../sessions";
import { type ProjectStore, isSessionId, sessionPaths } from "../store";
import { eventsAfter, lastSeq } from "../comms";
import type { EventHub } from "./events";

interface Known {
  /** stat fingerprint of session.json */
  record: string;
  /** size of timeline.ndjson */
  timelineSize: number;
  row: string;
  seq: number;
}

const POLL_MS = 500;
/** Liveness can change with no file touched (an agent dies): recompute every row this often. */
const LIVENESS_MS = 3000;
const DEBOUNCE_MS = 10;

function fingerprint(file: string): string {
  try {
    const st = statSync(file);
    return `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch (e) {
    const code = errnoCode(e);
    if (code === "ENOENT" || code === "ENOTDIR") return "";
    throw e;
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

export class SessionFeed {
  private known = new Map<string, Known>();
  private dirWatchers = new Map<string, FSWatcher>();
  private rootWatcher: FSWatcher | undefined;
  private pending = new Set<string>();
  private fullPending = false;
  private flushTimer: NodeJS.Timeout | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private livenessTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private warned = false;

  constructor(
    private store: ProjectStore,
    private hub: EventHub,
  ) {}

  start(): void {
    this.guarded(() => this.scanAll(true)); // also starts the folder watch
    registerCommitObserver({ afterRelease: (change) => (change.store.key === this.store.key ? this.touch(change.after.session_id) : undefined) });
    this.pollTimer = setInterval(() => {
      if (this.hub.clientCount > 0) this.guarded(() => this.scanAll(false));
    }, POLL_MS).unref();
    this.livenessTimer = setInterval(() => {
      if (this.hub.clientCount > 0) this.guarded(() => this.recheckRows());
    }, LIVENESS_MS).unref();
  }

  stop(): void {
    this.stopped = true;
    for (const t of [this.flushTimer, this.pollTimer, this.livenessTimer]) if (t) clearTimeout(t);
    this.rootWatcher?.close();
    for (const w of this.dirWatchers.values()) w.close();
    this.dirWatchers.clear();
  }

  /** Look at one session soon (coalesces bursts of file events). */
  touch(id: string): void {
    this.pending.add(id);
    this.schedule();
  }

  private schedule(): void {
    if (this.flushTimer || this.stopped) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      const full = this.fullPending;
      this.fullPending = false;
      const ids = [...this.pending];
      this.pending.clear();
      this.guarded(() => {
        if (full) this.scanAll(false);
        else for (const id of ids) this.scanOne(id, false);
      });
    }, DEBOUNCE_MS);
  }

  /** A folder that cannot be read this moment must not take the server down; the next scan retries. */
  private guarded(scan: () => void): void {
    try {
      scan();
    } catch (e) {
      if (!this.warned) process.stderr.write(`spex serve: watching sessions: ${(e as Error).message}\n`);
      this.warned = true;
    }
  }

  private watchRoot(): void {
    if (this.rootWatcher) return;
    try {
      this.rootWatcher = watch(this.store.sessionsDir, (_event, name) => {
        if (name && !String(name).startsWith(".")) this.touch(String(name));
        else this.fullPending = true;
        this.schedule();
      });
      this.rootWatcher.on("error", () => {
        this.rootWatcher?.close();
        this.rootWatcher = undefined;
      });
    } catch {
      // No sessions folder yet, or no inotify: the poll covers it; retry on the next scan.
      this.rootWatcher = undefined;
    }
  }

  private watchSession(id: string): void {
    if (this.dirWatchers.has(id)) return;
    try {
      const w = watch(sessionPaths(this.store, id).dir, () => this.touch(id));
      w.on("error", () => {
        w.close();
        this.dirWatchers.delete(id);
      });
      this.dirWatchers.set(id, w);
    } catch {
      // Out of watches (or the folder just went away): polling still sees it.
    }
  }

  private listIds(): string[] {
    try {
      return readdirSync(this.store.sessionsDir).filter(isSessionId);
    } catch (e) {
      if (errnoCode(e) === "ENOENT" || errnoCode(e) === "ENOTDIR") return [];
      throw e;
    }
  }

  private scanAll(silent: boolean): void {
    if (!this.rootWatcher && !this.stopped) this.watchRoot();
    const ids = new Set(this.listIds());
    for (const id of ids) this.scanOne(id, silent);
    for (const id of [...this.known.keys()]) if (!ids.has(id)) this.scanOne(id, silent);
  }

  private scanOne(id: string, silent: boolean): void {
    if (this.stopped) return;
    const paths = sessionPaths(this.store, id);
    const record = fingerprint(paths.record);
    const prev = this.known.get(id);
    if (record === "") {
      if (prev) {
        this.known.delete(id);
        this.dirWatchers.get(id)?.close();
        this.dirWatchers.delete(id);
        if (!silent) this.hub.publish({ type: "session_removed", data: { id } });
      }
      return;
    }
    this.watchSession(id);
    const timelineSize = sizeOf(paths.timeline);
    if (prev && prev.record === record && prev.timelineSize === timelineSize) return;
    const entry: Known = prev ?? { record: "", timelineSize: 0, row: "", seq: silent ? safeLastSeq(this.store, id) : 0 };
    if (entry.record !== record) {
      entry.record = record;
      this.publishRow(id, entry, silent);
    }
    if (entry.timelineSize !== timelineSize) {
      entry.timelineSize = timelineSize;
      if (!silent) this.publishTimeline(id, entry);
    }
    this.known.set(id, entry);
  }

  private publishRow(id: string, entry: Known, silent: boolean): void {
    let row;
    try {
      row = rowOf(this.store, readSession(this.store, id));
    } catch {
      return; // unreadable for a moment: the next event or poll tries again
    }
    if (!row) return;
    const text = JSON.stringify(row);
    if (text === entry.row) return;
    entry.row = text;
    if (!silent) this.hub.publish({ type: "session", data: row });
  }

  private publishTimeline(id: string, entry: Known): void {
    for (;;) {
      const events = eventsAfter(this.store, id, entry.seq, 500);
      for (const event of events) {
        entry.seq = event.seq;
        this.hub.publish({ type: "timeline", data: { id, event } });
      }
      if (events.length < 500) return;
    }
  }

  private recheckRows(): void {
    for (const [id, entry] of this.known) this.publishRow(id, entry, false);
  }
}

function safeLastSeq(store: ProjectStore, id: string): number {
  try {
    return lastSeq(store, id);
  } catch {
    return 0;
  }
}
