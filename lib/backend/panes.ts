// Live panes for the dashboard's terminal. Each session someone watches has
// one poller: a single tmux call (pane facts and a coloured capture) every
// POLL_MS while anyone watches, a frame sent to every viewer only when the
// screen changed. Keys come back over POST, from one writer at a time: a
// viewer becomes the writer by asking (or by taking over), and stops being it
// when its stream closes. The writer may size the pane's window to its box
// (issue 24 item 2); the window gets its own size back when that writer
// leaves or another takes over, and when the backend stops.
import type { IncomingMessage, ServerResponse } from "node:http";
import { randomBytes } from "node:crypto";
import { SpexError } from "../errors";
import { type KeyStep, keyCommands } from "../tmux/keys";
import { pasteSafeText, pasteText, tmuxAsync } from "../tmux";
import { PANE_FORMAT, type PaneFrame, parsePaneAnswer } from "./pane-frame";

/** How often a watched pane is captured; a key press captures at once. */
const POLL_MS = 150;
const HEARTBEAT_MS = 15000;
/** A viewer whose unsent frames pass this is dropped (its page reconnects and gets the screen as it is then). */
const MAX_BACKLOG_BYTES = 4 * 1024 * 1024;

export interface PaneTarget {
  sessionId: string;
  socket: string;
  paneId: string;
}

interface Viewer {
  id: string;
  res: ServerResponse;
}

function send(res: ServerResponse, type: string, data: unknown): void {
  res.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** Sizes a writer may give the pane (tmux refuses less than 1, and a box gives no more). */
export const PANE_COLS = { min: 10, max: 1000 };
export const PANE_ROWS = { min: 3, max: 500 };

class PaneWatch {
  readonly viewers = new Map<string, Viewer>();
  writer: string | null = null;
  /** The window's own size while a writer has it at the size of its box. */
  private own: { cols: number; rows: number } | null = null;
  private sizing: Promise<unknown> = Promise.resolve();
  private last = "";
  private frame: PaneFrame | undefined;
  private timer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private polling = false;
  private again = false;

  constructor(readonly target: PaneTarget, private readonly onEmpty: () => void) {}

  add(req: IncomingMessage, res: ServerResponse): Viewer {
    const viewer = { id: randomBytes(12).toString("hex"), res };
    this.viewers.set(viewer.id, viewer);
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff", connection: "keep-alive" });
    res.socket?.setNoDelay(true);
    send(res, "hello", { viewer: viewer.id, session: this.target.sessionId, writer: false, writerHeld: this.writer !== null });
    if (this.frame) send(res, "frame", this.frame);
    const drop = () => this.remove(viewer.id);
    req.on("close", drop);
    res.on("error", drop);
    this.heartbeat ??= setInterval(() => {
      for (const v of this.viewers.values()) v.res.write(": keep-alive\n\n");
    }, HEARTBEAT_MS).unref();
    this.kick();
    return viewer;
  }

  private remove(id: string): void {
    if (!this.viewers.delete(id)) return;
    if (this.writer === id) {
      this.writer = null;
      void this.restore();
      this.tellWriters();
    }
    if (this.viewers.size === 0) this.stop();
  }

  /** One tmux call at a time for sizes, in the order asked. */
  private queue<T>(step: () => Promise<T>): Promise<T> {
    const next = this.sizing.then(step, step);
    this.sizing = next.catch(() => undefined);
    return next;
  }

  /** The window at the writer's size; its own size is noted first, to give back later. */
  resize(cols: number, rows: number): Promise<{ cols: number; rows: number }> {
    const { socket, paneId } = this.target;
    return this.queue(async () => {
      if (!this.own) {
        const r = await tmuxAsync(socket, ["display-message", "-p", "-t", paneId, "#{window_width} #{window_height}"]);
        const [w, h] = r.stdout.trim().split(" ").map(Number);
        if (r.code !== 0 || !w || !h) throw new SpexError("session_not_running", "the pane is gone: nothing was resized", { hint: "reopen the terminal", httpStatus: 409 });
        this.own = { cols: w, rows: h };
      }
      const r = await tmuxAsync(socket, ["resize-window", "-t", paneId, "-x", String(cols), "-y", String(rows)]);
      if (r.code !== 0) {
        const said = r.stderr.trim().split(/\r?\n/)[0] ?? "";
        throw new SpexError("tmux_failed", `resizing the pane failed: ${said}`, { hint: "the session may have ended; reopen the terminal" });
      }
      this.kick();
      return { cols, rows };
    });
  }

  /** Give the window its own size back, and its size to follow its clients again (resize-window had fixed it). */
  restore(): Promise<void> {
    const { socket, paneId } = this.target;
    return this.queue(async () => {
      const own = this.own;
      if (!own) return;
      this.own = null;
      await tmuxAsync(socket, ["resize-window", "-t", paneId, "-x", String(own.cols), "-y", String(own.rows), ";", "set-option", "-w", "-u", "-t", paneId, "window-size"]);
      if (this.viewers.size > 0) this.kick();
    });
  }

  tellWriters(): void {
    for (const v of this.viewers.values()) send(v.res, "writer", { writer: v.id === this.writer, writerHeld: this.writer !== null });
  }

  /** Capture now (a key was sent), or as soon as the capture under way ends. */
  kick(): void {
    if (this.polling) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    void this.poll();
  }

  private async poll(): Promise<void> {
    this.polling = true;
    const { socket, paneId } = this.target;
    let ended = "";
    try {
      const r = await tmuxAsync(socket, ["display-message", "-p", "-t", paneId, PANE_FORMAT, ";", "capture-pane", "-p", "-e", "-N", "-t", paneId]);
      const frame = r.code === 0 ? parsePaneAnswer(r.stdout) : undefined;
      if (!frame) ended = "the pane is gone";
      else if (frame.dead) ended = "the pane's program ended";
      else {
        const { dead: _d, ...shown } = frame;
        const text = JSON.stringify(shown);
        if (text !== this.last) {
          this.last = text;
          this.frame = shown;
          for (const v of this.viewers.values()) {
            if (v.res.writableLength > MAX_BACKLOG_BYTES) v.res.destroy();
            else v.res.write(`event: frame\ndata: ${text}\n\n`);
          }
        }
      }
    } catch {
      ended = "tmux could not be asked";
    } finally {
      this.polling = false;
    }
    if (ended) {
      for (const v of this.viewers.values()) {
        send(v.res, "ended", { reason: ended });
        v.res.end();
      }
      this.viewers.clear();
      this.stop();
      return;
    }
    if (this.viewers.size === 0) return;
    if (this.again) {
      this.again = false;
      void this.poll();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.poll();
    }, POLL_MS);
  }

  private stop(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.timer = undefined;
    this.heartbeat = undefined;
    this.onEmpty();
  }
}

export function writerBusy(): SpexError {
  return new SpexError("pane_writer_busy", "another viewer is typing into this pane; one writer at a time", {
    hint: "take over the keyboard (the other viewer stops typing), or wait until it leaves",
    httpStatus: 409,
  });
}

export class PaneHub {
  private watches = new Map<string, PaneWatch>();

  /** Open a viewer's stream of frames (the response stays open). */
  watch(target: PaneTarget, req: IncomingMessage, res: ServerResponse): void {
    let w = this.watches.get(target.sessionId);
    if (w && (w.target.paneId !== target.paneId || w.target.socket !== target.socket)) w = undefined; // relaunched: a new pane
    if (!w) {
      const made: PaneWatch = new PaneWatch(target, () => {
        if (this.watches.get(target.sessionId) === made) this.watches.delete(target.sessionId);
      });
      w = made;
      this.watches.set(target.sessionId, w);
    }
    w.add(req, res);
  }

  private viewerWatch(sessionId: string, viewer: string): PaneWatch {
    const w = this.watches.get(sessionId);
    if (!w || !w.viewers.has(viewer)) {
      throw new SpexError("pane_viewer_unknown", "this viewer is not watching the pane (its stream closed)", {
        hint: "reopen the terminal, then type again",
        httpStatus: 409,
      });
    }
    return w;
  }

  /** Become the one writer: granted when nobody writes, or when `take` says to take over. */
  claim(sessionId: string, viewer: string, take: boolean): { writer: true; tookOver: boolean } {
    const w = this.viewerWatch(sessionId, viewer);
    if (w.writer !== null && w.writer !== viewer && !take) throw writerBusy();
    const tookOver = w.writer !== null && w.writer !== viewer;
    // The size was the old writer's: the window gets its own back until the new one sizes it.
    if (tookOver) void w.restore();
    w.writer = viewer;
    w.tellWriters();
    return { writer: true, tookOver };
  }

  /** The writer's box size for the pane's window (restored when it leaves). */
  async size(sessionId: string, viewer: string, cols: number, rows: number): Promise<{ cols: number; rows: number }> {
    this.writerTarget(sessionId, viewer);
    return this.watches.get(sessionId)!.resize(cols, rows);
  }

  /** Every window a writer sized gets its own size back (the backend is stopping). */
  async restoreAll(): Promise<void> {
    await Promise.all([...this.watches.values()].map((w) => w.restore()));
  }

  /** The pane the writer may type into now. */
  writerTarget(sessionId: string, viewer: string): PaneTarget {
    const w = this.viewerWatch(sessionId, viewer);
    if (w.writer === null) {
      throw new SpexError("pane_not_writer", "this viewer has not taken the keyboard of the pane", { hint: "ask for it first (POST …/pane/writer); one viewer types at a time", httpStatus: 409 });
    }
    if (w.writer !== viewer) throw writerBusy();
    return w.target;
  }

  /** Type key steps (one tmux call), or paste text as one bracketed paste; the next frame follows at once. */
  async type(sessionId: string, viewer: string, input: { steps?: KeyStep[]; paste?: string }): Promise<{ sent: number }> {
    const target = this.writerTarget(sessionId, viewer);
    let sent = 0;
    if (input.steps && input.steps.length > 0) {
      const commands = keyCommands(target.paneId, input.steps);
      const args = commands.flatMap((c, i) => (i > 0 ? [";", ...c] : c));
      const r = await tmuxAsync(target.socket, args);
      const why = r.stderr.trim().split(/\r?\n/)[0] ?? "";
      if (r.code !== 0) throw new SpexError("tmux_failed", `typing into the pane failed: ${why}`, { hint: "the session may have ended; reopen the terminal" });
      sent += input.steps.length;
    }
    if (input.paste) {
      // The one paste path: control characters become visible, the pane is checked alive in the same tmux call.
      const pasted = pasteText(target.socket, target.paneId, pasteSafeText(input.paste), `spex-dash-${randomBytes(4).toString("hex")}`);
      if (pasted.code !== 0 || pasted.paneDead) throw new SpexError("session_not_running", "the pane is gone or dead: nothing was pasted", { hint: "resume the session, then paste again" });
      sent += 1;
    }
    this.watches.get(sessionId)?.kick();
    return { sent };
  }
}

const hubs = new WeakMap<object, PaneHub>();

/** The pane hub of one server (keyed by an object that lives as long as it, its event hub). */
export function panesOf(owner: object): PaneHub {
  let hub = hubs.get(owner);
  if (!hub) {
    hub = new PaneHub();
    hubs.set(owner, hub);
  }
  return hub;
}
