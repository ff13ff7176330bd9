// The session's pane in the browser: xterm.js shows the frames the backend
// captures from tmux (GET …/pane, a stream), and what you type goes back as
// keys (POST …/pane/keys) — from one writer at a time. Clicking into the
// terminal asks to be the writer; another tab that writes keeps the keyboard
// until you take over.
//
// Fitting (issue 24 item 2): a viewer sees the whole pane at its own size,
// the font scaled to the box. Once the writer types, the pane itself takes
// the box's size at a readable font (POST …/pane/size), following the window;
// the backend gives the pane its own size back when the writer leaves. The
// scrollback is loaded into xterm when someone scrolls up from the bottom.
// Ctrl+C copies a selection (else it is ^C); Ctrl+V lets the browser paste,
// which goes as one bracketed paste. F6 hands the keyboard back to the page
// (WCAG 2.1.2): every other key, Esc and Tab included, is the program's.
import { Terminal } from "@xterm/xterm";
import { ApiError, api, sessionPath } from "./api";
import { byId } from "./dom";
import { type Stream, openStream } from "./stream";

interface Frame {
  cols: number;
  rows: number;
  cursor: { x: number; y: number; visible: boolean };
  text: string;
  /** Lines of scrollback the pane holds. */
  history: number;
}

/** Keys typed within this window go in one request. */
const BATCH_MS = 12;
/** The writer's font, and the largest a viewer's grows to. */
const FONT = 13;
/** A viewer's smallest: the whole pane as an overview (a 200-column pane in a 400 px box); past it, the box scrolls to the cursor. */
const MIN_FONT = 3;
const FAMILY = "ui-monospace, Menlo, Consolas, monospace";

const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, n));

export class LiveTerminal {
  private term: Terminal | undefined;
  private stream: Stream | undefined;
  private sessionId: string | null = null;
  private viewer = "";
  private writer = false;
  /** Another viewer holds the keyboard. */
  private held = false;
  /** A request to become the writer is out: what is typed meanwhile waits for its answer. */
  private claiming: Promise<boolean> | null = null;
  private typed = "";
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private sending = Promise.resolve();
  private frame: Frame | null = null;
  /** Frames drawn since the scrollback was loaded into xterm (it is then out of date). */
  private framesSinceHistory = 1;
  private historyLoad: Promise<void> | null = null;
  /** The writer has typed: the pane follows this box. */
  private sizing = false;
  /** The size last asked of the pane ("COLSxROWS"). */
  private sized = "";
  private fitTimer: ReturnType<typeof setTimeout> | null = null;
  private noteTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly box = byId("term");

  constructor() {
    byId("term-take").addEventListener("click", () => void this.claim(true));
    // A paste goes as one bracketed paste through the backend's paste path, not as typed keys.
    this.box.addEventListener(
      "paste",
      (ev) => {
        const text = ev.clipboardData?.getData("text/plain") ?? "";
        ev.preventDefault();
        ev.stopPropagation();
        if (!text) return;
        if (!this.stream) return this.note("not sent: the terminal is not live");
        if (!this.writer) return this.note("click into the terminal to type or paste");
        this.startSizing();
        void this.send({ paste: text });
      },
      true,
    );
    this.box.addEventListener("mousedown", () => void this.ask());
    // A click beside the drawn screen (a small pane in a large box) is a click into the terminal too:
    // the keys typed next are the terminal's, not the page's (j, k, / would walk the list).
    this.box.addEventListener("click", (ev) => {
      if (this.term && !this.term.element?.contains(ev.target as Node)) this.term.focus();
    });
    // The keyboard's way in: Tab onto the terminal asks for the keyboard as a click does.
    this.box.addEventListener("focusin", () => {
      byId("term-leave").hidden = false;
      void this.ask();
    });
    this.box.addEventListener("focusout", (ev) => {
      if (!this.box.contains(ev.relatedTarget as Node | null)) byId("term-leave").hidden = true;
    });
    new ResizeObserver(() => this.scheduleFit()).observe(this.box);
  }

  open(id: string): void {
    if (this.sessionId === id && this.stream) return;
    this.close();
    this.sessionId = id;
    const term = new Terminal({ cols: 80, rows: 24, fontSize: FONT, scrollback: 10000, cursorBlink: false, fontFamily: FAMILY });
    this.term = term;
    term.open(this.box);
    term.onData((d) => this.type(d));
    term.attachCustomKeyEventHandler((ev) => this.key(ev));
    term.attachCustomWheelEventHandler((ev) => this.wheel(ev));
    this.status("connecting…");
    this.stream = openStream({
      path: sessionPath(id, "/pane"),
      onFrame: (f) => this.onFrame(f.type, f.data),
      onOpen: () => this.status("live"),
      onUnproven: () => this.status("not your backend at this address: waiting for it"),
      onDrop: () => {
        this.status("reconnecting…");
        this.viewer = "";
        this.setWriter(false, false);
      },
      onRefused: () => this.status("needs the token"),
      onError: (message) => {
        this.status(message);
        this.stream = undefined;
      },
    });
  }

  close(): void {
    this.stream?.stop();
    this.stream = undefined;
    this.term?.dispose();
    this.term = undefined;
    this.sessionId = null;
    this.viewer = "";
    this.writer = false;
    this.held = false;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.typed = "";
    this.claiming = null;
    this.sizing = false;
    this.sized = "";
    this.frame = null;
    this.framesSinceHistory = 1;
    this.historyLoad = null; // a load cut short by the dispose never settles
    this.box.textContent = "";
    delete this.box.dataset.size;
  }

  private status(text: string): void {
    byId("term-status").textContent = text;
  }

  /** A word that goes away by itself ("copied"). */
  private note(text: string): void {
    byId("term-note").textContent = text;
    if (this.noteTimer) clearTimeout(this.noteTimer);
    this.noteTimer = setTimeout(() => (byId("term-note").textContent = ""), 2500);
  }

  private setWriter(mine: boolean, held: boolean): void {
    this.writer = mine;
    this.held = held && !mine;
    if (!mine && this.sizing) {
      // The pane's size was ours to set only while we typed (the backend gives it back).
      this.sizing = false;
      this.sized = "";
      this.scheduleFit();
    }
    byId("term-take").hidden = mine || !held;
    this.box.classList.toggle("writing", mine);
    byId("term-writer").textContent = mine ? "you type here" : held ? "another viewer is typing here" : "click (or Tab into) the terminal to type";
  }

  private onFrame(type: string, data: string): void {
    const msg = JSON.parse(data) as Record<string, unknown>;
    if (type === "hello") {
      this.viewer = String(msg.viewer);
      this.setWriter(false, !!msg.writerHeld);
    } else if (type === "writer") {
      this.setWriter(!!msg.writer, !!msg.writerHeld);
    } else if (type === "frame") {
      this.draw(msg as unknown as Frame);
    } else if (type === "ended") {
      this.status(`ended: ${String(msg.reason)}`);
      this.stream?.stop();
      this.stream = undefined;
      // Nobody types into a pane that is gone: not "you type here", and no keys sent to be refused.
      this.viewer = "";
      this.setWriter(false, false);
      byId("term-writer").textContent = "";
    }
  }

  private draw(f: Frame): void {
    const term = this.term;
    if (!term) return;
    const resized = term.cols !== f.cols || term.rows !== f.rows;
    if (resized) term.resize(f.cols, f.rows);
    this.paint(f);
    this.frame = f;
    this.framesSinceHistory += 1;
    this.box.dataset.size = `${f.cols}x${f.rows}`;
    this.box.dataset.frame = String(Date.now());
    if (resized) this.scheduleFit();
    this.keepCursorInView(f);
  }

  /**
   * A pane too large for the box even at the smallest font: the box scrolls so
   * the cursor shows. A screen that fits shows from its top left corner: the
   * box may have been scrolled while the font was still large (a frame drawn
   * before the fit), and xterm's own parts can stay wider than the screen.
   */
  private keepCursorInView(f: Frame): void {
    const cell = this.cell();
    const term = this.term;
    if (!cell || !term) return;
    if (cell.w * term.cols <= this.box.clientWidth && cell.h * term.rows <= this.box.clientHeight) {
      this.box.scrollLeft = 0;
      this.box.scrollTop = 0;
      return;
    }
    const x = f.cursor.x * cell.w;
    const y = f.cursor.y * cell.h;
    if (x < this.box.scrollLeft || x > this.box.scrollLeft + this.box.clientWidth - cell.w) this.box.scrollLeft = Math.max(0, x - this.box.clientWidth / 2);
    if (y < this.box.scrollTop || y > this.box.scrollTop + this.box.clientHeight - cell.h) this.box.scrollTop = Math.max(0, y - this.box.clientHeight / 2);
  }

  /** The screen as one write (xterm paints it in one go); the scrollback above it stays as it is. */
  private paint(f: Frame, written?: () => void): void {
    const cursor = `\x1b[${f.cursor.y + 1};${f.cursor.x + 1}H${f.cursor.visible ? "\x1b[?25h" : "\x1b[?25l"}`;
    // The text holds only SGR colour sequences (the backend keeps nothing else).
    if (this.term) this.term.write(`\x1b[0m\x1b[H\x1b[2J${f.text.split("\n").join("\r\n")}\x1b[0m${cursor}`, written);
    else written?.();
  }

  // --- fitting ---------------------------------------------------------------

  private scheduleFit(): void {
    if (this.fitTimer) clearTimeout(this.fitTimer);
    this.fitTimer = setTimeout(() => {
      this.fitTimer = null;
      this.fit();
    }, 60);
  }

  /** One cell of the terminal as drawn now, in CSS pixels. */
  private cell(): { w: number; h: number } | null {
    const term = this.term;
    const screen = term?.element?.querySelector(".xterm-screen");
    if (!term || !screen) return null;
    const r = screen.getBoundingClientRect();
    return r.width > 0 && r.height > 0 ? { w: r.width / term.cols, h: r.height / term.rows } : null;
  }

  private setFont(size: number): void {
    if (this.term && this.term.options.fontSize !== size) this.term.options.fontSize = size;
  }

  private fit(): void {
    this.fitFont();
    if (this.frame) this.keepCursorInView(this.frame);
  }

  private fitFont(): void {
    const term = this.term;
    const width = this.box.clientWidth;
    const height = this.box.clientHeight;
    if (!term || !this.frame || width < 40 || height < 40) return; // hidden, or not drawn yet
    if (this.sizing) {
      this.setFont(FONT);
      const cell = this.cell();
      if (!cell) return;
      const cols = clamp(Math.floor(width / cell.w), 10, 1000);
      const rows = clamp(Math.floor(height / cell.h), 3, 500);
      const want = `${cols}x${rows}`;
      if (want !== this.sized && this.sessionId && this.viewer) {
        this.sized = want;
        void api("POST", sessionPath(this.sessionId, "/pane/size"), { viewer: this.viewer, cols, rows }).catch((e: Error) => {
          this.sized = "";
          this.note(e.message);
        });
      }
      return;
    }
    // Watching: the pane at its own size, the font scaled so the whole of it shows.
    let cell = this.cell();
    if (!cell) return;
    const font = term.options.fontSize ?? FONT;
    const scale = Math.min(width / (this.frame.cols * cell.w), height / (this.frame.rows * cell.h));
    let size = clamp(Math.floor(font * scale * 2) / 2, MIN_FONT, FONT);
    this.setFont(size);
    // Cells round to whole pixels: step down until the screen is inside the box.
    for (let i = 0; i < 8 && size > MIN_FONT && (cell = this.cell()) && (cell.w * term.cols > width || cell.h * term.rows > height); i++) {
      size -= 0.5;
      this.setFont(size);
    }
  }

  private startSizing(): void {
    if (this.sizing) return;
    this.sizing = true;
    this.fit();
  }

  // --- keys, scrollback, clipboard -------------------------------------------

  private key(ev: KeyboardEvent): boolean {
    if (ev.type !== "keydown") return true;
    // No agent reads F6 (Claude Code needs Esc and Shift+Tab, shells the Ctrl letters); it is the
    // browser's own "next pane" key. The keyboard goes back to the terminal's tab, the control before it.
    if (ev.key === "F6" && !ev.ctrlKey && !ev.altKey && !ev.metaKey && !ev.shiftKey) {
      ev.preventDefault();
      byId("tab-terminal").focus();
      return false;
    }
    const k = ev.key.toLowerCase();
    const ctrl = ev.ctrlKey && !ev.altKey && !ev.metaKey;
    if (ctrl && k === "c" && (ev.shiftKey || this.term?.hasSelection())) {
      this.copy();
      return false;
    }
    // Ctrl+V, Shift+Insert: the browser's own paste, which the listener above sends as one paste.
    if ((ctrl && k === "v") || (ev.shiftKey && ev.key === "Insert")) return false;
    if (ev.shiftKey && (ev.key === "PageUp" || ev.key === "PageDown")) {
      void this.scrollBack(ev.key === "PageUp" ? -(this.term?.rows ?? 10) : this.term?.rows ?? 10);
      return false;
    }
    return true;
  }

  private copy(): void {
    const text = this.term?.getSelection() ?? "";
    if (!text) return;
    const clip = navigator.clipboard as Clipboard | undefined;
    if (!clip) return this.note("this browser gives the page no clipboard here");
    clip.writeText(text).then(
      () => this.note("copied"),
      () => this.note("the browser did not let the page copy"),
    );
  }

  private atBottom(): boolean {
    const b = this.term?.buffer.active;
    return !b || b.viewportY >= b.baseY;
  }

  private wheel(ev: WheelEvent): boolean {
    if (ev.deltaY >= 0 || !this.atBottom()) return true;
    if (!this.frame?.history || this.framesSinceHistory === 0) return true;
    void this.scrollBack(-Math.max(3, Math.round(Math.abs(ev.deltaY) / 40)));
    return false;
  }

  /** Scroll by `lines`, loading the pane's scrollback first when leaving the live screen upwards. */
  private async scrollBack(lines: number): Promise<void> {
    if (lines < 0 && this.atBottom() && this.frame?.history && this.framesSinceHistory > 0) {
      this.historyLoad ??= this.loadHistory().finally(() => (this.historyLoad = null));
      await this.historyLoad;
    }
    this.term?.scrollLines(lines);
  }

  private async loadHistory(): Promise<void> {
    const id = this.sessionId;
    if (!id) return;
    let h: { history: number; lines: string[] };
    try {
      h = await api<{ history: number; lines: string[] }>("GET", sessionPath(id, "/pane/history"));
    } catch (e) {
      this.note((e as Error).message);
      return;
    }
    const term = this.term;
    if (id !== this.sessionId || !term || !this.frame) return;
    term.reset();
    // The lines scroll up into xterm's scrollback as they are written; the screen is painted over the rest.
    if (h.lines.length) term.write(`\x1b[0m${h.lines.join("\x1b[0m\r\n")}\x1b[0m${"\r\n".repeat(term.rows)}`);
    this.framesSinceHistory = 0;
    // xterm parses writes later: scrolling before they are in would move nothing.
    await new Promise<void>((done) => this.paint(this.frame!, done));
  }

  // --- the writer's keys -----------------------------------------------------

  /** Become the writer unless already (one request for a click and the focus it brings). */
  private ask(): void {
    if (this.writer || this.claiming) return;
    const asking: Promise<boolean> = this.claim(false).finally(() => {
      if (this.claiming === asking) this.claiming = null;
    });
    this.claiming = asking;
  }

  private async claim(take: boolean): Promise<boolean> {
    const id = this.sessionId;
    const viewer = this.viewer;
    if (!id || !viewer) return false;
    try {
      await api("POST", sessionPath(id, "/pane/writer"), { viewer, take });
      // An answer for a terminal since closed (another session's panel now) says nothing about this one.
      if (id !== this.sessionId || viewer !== this.viewer) return false;
      this.setWriter(true, true);
      this.term?.focus();
      return true;
    } catch (e) {
      if (id !== this.sessionId || viewer !== this.viewer) return false;
      if ((e as ApiError).code === "pane_writer_busy") this.setWriter(false, true);
      else this.status((e as Error).message);
      return false;
    }
  }

  private type(data: string): void {
    if (!this.stream) return this.note("not sent: the terminal is not live");
    // Keys typed while the keyboard is being asked for (typing straight after the click, on a slow link) wait for the answer.
    if (!this.writer && !this.claiming) {
      if (this.held) return this.note("not sent: another viewer is typing here");
      // Typing in the terminal asks for the keyboard too: the focus stays here across a reconnect
      // (a backend restart, a dropped link), which forgets the writer; the keys wait for the answer.
      this.ask();
    }
    this.term?.scrollToBottom();
    this.typed += data;
    if (this.flushTimer) return;
    const id = this.sessionId;
    this.flushTimer = setTimeout(() => void this.flush(id), BATCH_MS);
  }

  private async flush(id: string | null): Promise<void> {
    if (this.claiming) await this.claiming;
    if (id !== this.sessionId) return; // the panel moved on meanwhile, and close() dropped those keys
    this.flushTimer = null;
    const data = this.typed;
    this.typed = "";
    if (!data) return;
    if (!this.writer) return this.note(this.held ? "not sent: another viewer is typing here" : "not sent: this tab does not have the keyboard");
    this.startSizing();
    void this.send({ data });
  }

  /** Requests go one after another, so keys arrive in the order they were typed. */
  private send(body: { data?: string; paste?: string }): Promise<void> {
    const id = this.sessionId;
    const viewer = this.viewer;
    this.sending = this.sending.then(async () => {
      if (!id || !viewer) return;
      try {
        await api("POST", sessionPath(id, "/pane/keys"), { viewer, ...body });
      } catch (e) {
        if ((e as ApiError).code === "pane_writer_busy") this.setWriter(false, true);
        else this.status((e as Error).message);
      }
    });
    return this.sending;
  }
}
