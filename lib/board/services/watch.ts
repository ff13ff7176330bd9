// The board's rows, kept current cheaply (DESIGN.md §14): the listing is the
// one `ls` makes (lib/verbs/list), read again only when something changed —
// a file event in the sessions folder, or in a session's folder on a file its
// row reads (lib/sessions ROW_FILES: not a setup script's log, which grows
// many times a second), or a change of mtime seen by a poll of stats where
// events are lost. A whole listing also runs every few seconds, since an agent can die
// without touching a file (liveness is read from its process). Never a tmux call.
import { type FSWatcher, readdirSync, statSync, watch } from "node:fs";
import { join } from "node:path";
import { listSessions } from "../../verbs/list";
import { changesRow } from "../../sessions";
import { type ProjectStore, isSessionId } from "../../store";
import type { BoardSnapshot, ListRow } from "../model/services";
import type { RemoteRows } from "./machines";

/** A stat of every record this often, for changes the file events missed (they are the fast path: this is the net under it). */
const POLL_MS = 2000;
/**
 * A whole listing this often, for deaths no file records (an agent killed
 * with -9; one that exits on its own has its hook write the record). A
 * listing of 200 live sessions costs ~40 ms of CPU (it reads the process
 * table): every 10 s keeps an idle board well under 1 % of a core.
 */
const RELIST_MS = 10_000;
/** Bursts of events (a record write is a temp file and a rename) become one listing. */
const SETTLE_MS = 25;

function stamp(file: string): string {
  try {
    // No exception for a missing file (most sessions have no timeline yet): thrown 200 times a second, they were the poll's main cost.
    const st = statSync(file, { throwIfNoEntry: false });
    return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : "";
  } catch {
    return "";
  }
}

export class BoardWatch {
  private listeners = new Set<(s: BoardSnapshot) => void>();
  private root: FSWatcher | undefined;
  private folders = new Map<string, FSWatcher>();
  private stamps = new Map<string, string>();
  private timers: NodeJS.Timeout[] = [];
  private settle: NodeJS.Timeout | undefined;
  private listing = false;
  private again = false;
  private last = "";
  private lastSnapshot: BoardSnapshot | undefined;
  /** This machine's rows as last listed (kept when a listing fails). */
  private local: ListRow[] = [];
  private stopped = false;
  /** Who waits for a listing started after their call (`settled`), by the count of listings then. */
  private waiters: { after: number; resolve: () => void }[] = [];
  /** How many listings started (the tests and the bench count them: a listing is the board's one cost; `settled` too). */
  listings = 0;

  /**
   * `machine`: this machine's name, put on its rows (`--all-machines`);
   * `remote`: the other machines' rows, appended after this machine's.
   */
  constructor(
    private store: ProjectStore,
    private fleet: { machine?: string; remote?: RemoteRows } = {},
  ) {}

  subscribe(listener: (s: BoardSnapshot) => void): () => void {
    this.listeners.add(listener);
    if (this.lastSnapshot) listener(this.lastSnapshot);
    if (this.listeners.size === 1) this.start();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  /** List again soon (an action just ran, or a file changed). */
  poke(): void {
    if (this.stopped || this.settle) return;
    this.settle = setTimeout(() => {
      this.settle = undefined;
      void this.list();
    }, SETTLE_MS);
  }

  /**
   * Resolves once a listing that starts after this call has been handed to
   * the listeners: an action's footer line ("restored …") then never shows
   * beside a list that does not have it yet, and a key pressed on reading it
   * acts on the rows it names.
   */
  settled(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const after = this.listings;
    const done = new Promise<void>((resolve) => this.waiters.push({ after, resolve }));
    void this.list();
    return done;
  }

  private release(upTo: number): void {
    const still = this.waiters.filter((w) => w.after >= upTo);
    for (const w of this.waiters) if (w.after < upTo) w.resolve();
    this.waiters = still;
  }

  private start(): void {
    this.stopped = false;
    this.watchRoot();
    this.timers.push(setInterval(() => this.pollStamps(), POLL_MS), setInterval(() => void this.list(), RELIST_MS));
    this.fleet.remote?.start(() => this.poke());
    void this.list();
  }

  stop(): void {
    this.stopped = true;
    this.fleet.remote?.stop();
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    if (this.settle) clearTimeout(this.settle);
    this.settle = undefined;
    this.root?.close();
    this.root = undefined;
    for (const w of this.folders.values()) w.close();
    this.folders.clear();
    this.release(Number.POSITIVE_INFINITY);
  }

  private watchRoot(): void {
    if (this.root) return;
    try {
      this.root = watch(this.store.sessionsDir, () => this.poke());
      this.root.on("error", () => {
        this.root?.close();
        this.root = undefined;
      });
    } catch {
      // No sessions folder yet, or no inotify: the poll covers it, and the next listing tries again.
    }
  }

  private watchFolder(id: string): void {
    if (this.folders.has(id)) return;
    try {
      const w = watch(join(this.store.sessionsDir, id), (_event, name) => {
        if (changesRow(name === null ? null : String(name))) this.poke();
      });
      w.on("error", () => {
        w.close();
        this.folders.delete(id);
      });
      this.folders.set(id, w);
    } catch {
      // Out of watches, or the folder just went: the poll still sees it.
    }
  }

  private ids(): string[] {
    try {
      return readdirSync(this.store.sessionsDir).filter(isSessionId);
    } catch {
      return [];
    }
  }

  /** One stat per record: cheap, and it catches what a lost event would hide. */
  private pollStamps(): void {
    const ids = this.ids();
    let changed = ids.length !== this.stamps.size;
    for (const id of ids) {
      const s = stamp(join(this.store.sessionsDir, id, "session.json"));
      if (this.stamps.get(id) !== s) changed = true;
      this.stamps.set(id, s);
    }
    if (changed) {
      for (const id of [...this.stamps.keys()]) if (!ids.includes(id)) this.stamps.delete(id);
      this.poke();
    }
  }

  private async list(): Promise<void> {
    if (this.stopped) return;
    if (this.listing) {
      this.again = true;
      return;
    }
    this.listing = true;
    const generation = ++this.listings;
    try {
      let snapshot: BoardSnapshot;
      try {
        const { rows, warnings } = await listSessions(this.store, { all: true }); // archived rows too: the board hides them as ls does, and shows them on `A`
        const machine = this.fleet.machine;
        this.local = machine === undefined ? rows : rows.map((r) => ({ ...r, machine }));
        snapshot = { rows: this.local, warnings: warnings.map((w) => w.message), at: Date.now() };
      } catch (e) {
        snapshot = { rows: this.local, warnings: [], error: (e as Error).message, at: Date.now() };
      }
      this.watchRoot();
      const live = new Set<string>();
      for (const r of snapshot.rows) {
        live.add(r.id);
        this.watchFolder(r.id);
      }
      const remote = this.fleet.remote;
      if (remote) snapshot = { ...snapshot, rows: [...snapshot.rows, ...remote.all()], warnings: [...snapshot.warnings, ...remote.warnings()] };
      for (const [id, w] of this.folders) {
        if (live.has(id)) continue;
        w.close();
        this.folders.delete(id);
      }
      // Nothing changed, nothing to draw: an idle board costs a listing every few seconds and no frame.
      const text = JSON.stringify([snapshot.rows, snapshot.warnings, snapshot.error]);
      if (text === this.last) return;
      this.last = text;
      this.lastSnapshot = snapshot;
      for (const l of this.listeners) l(snapshot);
    } finally {
      this.listing = false;
      this.release(generation);
      if (this.again && !this.stopped) {
        this.again = false;
        this.poke();
      }
    }
  }
}
