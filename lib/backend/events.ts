// Server-sent events: every change is serialized once and written to every
// client. A short ring of recent events lets a reconnecting EventSource
// resume from Last-Event-ID; a client too far behind is told to resync.
import type { IncomingMessage, ServerResponse } from "node:http";

export type FeedEvent =
  | { type: "session"; data: unknown }
  | { type: "session_removed"; data: { id: string } }
  | { type: "timeline"; data: { id: string; event: unknown } };

interface Framed {
  seq: number;
  text: string;
}

/** A client whose unsent backlog passes this is dropped (it reconnects and resyncs). */
const MAX_BACKLOG_BYTES = 4 * 1024 * 1024;
const RING_SIZE = 4096;
const HEARTBEAT_MS = 15000;

function frame(seq: number, type: string, data: unknown): string {
  return `id: ${seq}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

export class EventHub {
  private clients = new Set<ServerResponse>();
  private ring: Framed[] = [];
  private seq = 0;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(private hello: () => unknown) {}

  get clientCount(): number {
    return this.clients.size;
  }

  /** The id of the last frame published (0 before any): a reader of the state can say which frames it already holds. */
  get lastId(): number {
    return this.seq;
  }

  publish(event: FeedEvent): void {
    const seq = ++this.seq;
    const text = frame(seq, event.type, event.data);
    this.ring.push({ seq, text });
    if (this.ring.length > RING_SIZE) this.ring.splice(0, this.ring.length - RING_SIZE);
    for (const res of this.clients) this.write(res, text);
  }

  private write(res: ServerResponse, text: string): void {
    if (res.writableLength > MAX_BACKLOG_BYTES) {
      this.clients.delete(res);
      res.destroy();
      return;
    }
    res.write(text);
  }

  attach(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      connection: "keep-alive",
    });
    res.socket?.setNoDelay(true);
    res.write(`retry: 1000\n`);
    const last = Number(req.headers["last-event-id"] ?? NaN);
    const oldest = this.ring[0]?.seq ?? this.seq + 1;
    if (Number.isInteger(last) && last >= oldest - 1 && last <= this.seq) {
      // Resume: replay what the client missed, no hello (its state is current up to `last`).
      for (const f of this.ring) if (f.seq > last) res.write(f.text);
    } else {
      res.write(frame(this.seq, "hello", { ...(this.hello() as object), resync: Number.isInteger(last) }));
    }
    this.clients.add(res);
    const drop = () => this.clients.delete(res);
    req.on("close", drop);
    res.on("error", drop);
    this.heartbeat ??= setInterval(() => {
      for (const c of this.clients) this.write(c, ": keep-alive\n\n");
    }, HEARTBEAT_MS).unref();
  }

  close(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const c of this.clients) c.end();
    this.clients.clear();
  }
}
