// The session's pane in the browser: xterm.js shows the frames the backend
// captures from tmux (GET …/pane, a stream), and what you type goes back as
// keys (POST …/pane/keys) — from one writer at a time. Clicking into the
// terminal asks to be the writer; another tab that writes keeps the keyboard
// until you take over.
import { Terminal } from "@xterm/xterm";
import { ApiError, api, sessionPath } from "./api";
import { byId } from "./dom";
import { type Stream, openStream } from "./stream";

interface Frame {
  cols: number;
  rows: number;
  cursor: { x: number; y: number; visible: boolean };
  text: string;
}

/** Keys typed within this window go in one request. */
const BATCH_MS = 12;

export class LiveTerminal {
  private term: Terminal | undefined;
  private stream: Stream | undefined;
  private sessionId: string | null = null;
  private viewer = "";
  private writer = false;
  private typed = "";
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private sending = Promise.resolve();

  constructor() {
    byId("term-take").addEventListener("click", () => void this.claim(true));
    const box = byId("term");
    // A paste goes as one bracketed paste through the backend's paste path, not as typed keys.
    box.addEventListener(
      "paste",
      (ev) => {
        const text = ev.clipboardData?.getData("text/plain") ?? "";
        ev.preventDefault();
        ev.stopPropagation();
        if (text) void this.send({ paste: text });
      },
      true,
    );
    box.addEventListener("mousedown", () => void (this.writer || this.claim(false)));
  }

  open(id: string): void {
    if (this.sessionId === id && this.stream) return;
    this.close();
    this.sessionId = id;
    const term = new Terminal({ cols: 80, rows: 24, fontSize: 12, scrollback: 0, cursorBlink: false, fontFamily: "ui-monospace, Menlo, Consolas, monospace" });
    this.term = term;
    term.open(byId("term"));
    term.onData((d) => this.type(d));
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
    byId("term").textContent = "";
  }

  private status(text: string): void {
    byId("term-status").textContent = text;
  }

  private setWriter(mine: boolean, held: boolean): void {
    this.writer = mine;
    byId("term-take").hidden = mine || !held;
    byId("term").classList.toggle("writing", mine);
    byId("term-writer").textContent = mine ? "you type here" : held ? "another viewer is typing here" : "click the terminal to type";
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
    }
  }

  private draw(f: Frame): void {
    const term = this.term;
    if (!term) return;
    if (term.cols !== f.cols || term.rows !== f.rows) term.resize(f.cols, f.rows);
    const cursor = `\x1b[${f.cursor.y + 1};${f.cursor.x + 1}H${f.cursor.visible ? "\x1b[?25h" : "\x1b[?25l"}`;
    // One write per frame: xterm paints it in one go. The text holds only SGR colour sequences (the backend keeps nothing else).
    term.write(`\x1b[0m\x1b[H\x1b[2J${f.text.split("\n").join("\r\n")}\x1b[0m${cursor}`);
    byId("term").dataset.frame = String(Date.now());
  }

  private async claim(take: boolean): Promise<boolean> {
    if (!this.sessionId || !this.viewer) return false;
    try {
      await api("POST", sessionPath(this.sessionId, "/pane/writer"), { viewer: this.viewer, take });
      this.setWriter(true, true);
      this.term?.focus();
      return true;
    } catch (e) {
      if ((e as ApiError).code === "pane_writer_busy") this.setWriter(false, true);
      else this.status((e as Error).message);
      return false;
    }
  }

  private type(data: string): void {
    if (!this.writer) return;
    this.typed += data;
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      const data = this.typed;
      this.typed = "";
      void this.send({ data });
    }, BATCH_MS);
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
