// What `spex mcp` reads, one JSON-RPC message per line, with a bound on a
// line. The SDK's stdio reader keeps appending to one buffer until it sees a
// newline: a 20 MB line took it minutes of copying and then the server went
// away without a word, ending every call of the agent using it. Here a line
// over the bound is dropped as it streams in (never held whole) and answered
// with a JSON-RPC error naming the limit, and the server reads on.
import { Transform, type TransformCallback } from "node:stream";

export interface OversizedLine {
  /** Bytes the line had (up to its newline, or the end of input). */
  bytes: number;
  /** The JSON-RPC id, when it could be read from the line's first or last bytes; null otherwise. */
  id: string | number | null;
}

const ID = /"id"\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,16})\s*[,}]/;
const EDGE = 512;

function idOf(head: string, tail: string): string | number | null {
  const m = ID.exec(head) ?? ID.exec(tail);
  if (!m) return null;
  try {
    return JSON.parse(m[1]!) as string | number;
  } catch {
    return null;
  }
}

/** Passes lines of at most `maxBytes` through whole; reports each longer one to `onOversized` instead. */
export class BoundedLines extends Transform {
  private pending: Buffer[] = [];
  private size = 0;
  /** Inside a line already over the bound: its bytes are counted and dropped. */
  private dropping = false;
  private dropped = 0;
  private head = "";
  private tail = Buffer.alloc(0);

  constructor(private readonly maxBytes: number, private readonly onOversized: (line: OversizedLine) => void) {
    super();
  }

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback): void {
    const data = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    let start = 0;
    while (start <= data.length) {
      const nl = data.indexOf(10, start);
      const piece = data.subarray(start, nl < 0 ? data.length : nl);
      if (this.dropping) this.discard(piece);
      else if (this.size + piece.length > this.maxBytes) {
        this.dropping = true;
        const whole = Buffer.concat([...this.pending, piece.subarray(0, EDGE)]);
        this.head = whole.subarray(0, EDGE).toString("utf8");
        this.dropped = this.size;
        this.pending = [];
        this.size = 0;
        this.discard(piece);
      } else if (piece.length > 0) {
        this.pending.push(piece);
        this.size += piece.length;
      }
      if (nl < 0) break;
      this.endLine();
      start = nl + 1;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.dropping) this.report();
    else if (this.size > 0) this.push(Buffer.concat(this.pending));
    done();
  }

  private discard(piece: Buffer): void {
    this.dropped += piece.length;
    this.tail = Buffer.concat([this.tail, piece.subarray(-EDGE)]).subarray(-EDGE);
  }

  private endLine(): void {
    if (this.dropping) {
      this.report();
      return;
    }
    this.pending.push(Buffer.from("\n"));
    this.push(Buffer.concat(this.pending));
    this.pending = [];
    this.size = 0;
  }

  private report(): void {
    const line = { bytes: this.dropped, id: idOf(this.head, this.tail.toString("utf8")) };
    this.dropping = false;
    this.dropped = 0;
    this.head = "";
    this.tail = Buffer.alloc(0);
    this.onOversized(line);
  }
}

/** The JSON-RPC error answering an oversized request: Invalid Request, with the spex code and the limit. */
export function oversizedAnswer(line: OversizedLine, maxBytes: number): string {
  const message = `the request is ${line.bytes} bytes; spex mcp reads at most ${maxBytes} bytes per message, so it was dropped [request_too_large]`;
  return JSON.stringify({ jsonrpc: "2.0", id: line.id, error: { code: -32600, message, data: { code: "request_too_large", limit: maxBytes, bytes: line.bytes } } }) + "\n";
}
