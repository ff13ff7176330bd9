// The process's stdin, stdout and stderr as a command sees them
// (this.context.stdout …), set up only when used. In a Bun binary the first
// touch of process.stdout (or stdin, stderr) loads the runtime's stream
// machinery, ~20 ms of CPU; most verbs only ever write text, so until a
// command asks for anything else (isTTY, columns, a listener, a pipe) a write
// goes straight to the file descriptor. After that everything, writes
// included, goes through the real stream, so output keeps its order.
//
// A reader that goes away is not an error (`spex session show X | head -3`,
// as git): the first write to a closed stdout ends the process at once and
// quietly, exit 0, however the runtime reports it. A closed stderr only
// loses the text: the verb goes on and exits as it would have.
import { writeSync } from "node:fs";

const closedPipe = (e: unknown) => (e as NodeJS.ErrnoException | null)?.code === "EPIPE";

/** The reader of `fd` went away: on stdout nothing more can be said and nothing went wrong; on stderr the text is dropped. */
function readerGone(fd: 1 | 2): void {
  if (fd === 1) process.exit(0);
}

/** Make a real output stream quiet on a closed pipe, whether write() throws it (Bun) or emits it (Node). */
export function quietOnClosedPipe(stream: NodeJS.WriteStream, fd: 1 | 2): NodeJS.WriteStream {
  const write = stream.write;
  stream.write = function (this: NodeJS.WriteStream, ...args: unknown[]) {
    try {
      return (write as (...a: unknown[]) => boolean).apply(this, args);
    } catch (e) {
      if (!closedPipe(e)) throw e;
      readerGone(fd);
      return false;
    }
  } as typeof stream.write;
  stream.on("error", (e) => {
    if (!closedPipe(e)) throw e;
    readerGone(fd);
  });
  return stream;
}

type Callback = (error?: Error | null) => void;

const EMPTY = new Uint8Array(0);

/** Everything but write() reaches the real stream, opened on first use. */
function deferred<T extends object>(open: () => T, own: Partial<Record<PropertyKey, unknown>> = {}): T {
  let real: T | undefined;
  const stream = () => (real ??= open());
  return new Proxy({} as T, {
    get(_, key) {
      if (key in own) return own[key];
      const s = stream();
      const value = Reflect.get(s, key, s);
      return typeof value === "function" ? value.bind(s) : value;
    },
    set: (_, key, value) => Reflect.set(stream(), key, value),
    has: (_, key) => key in own || Reflect.has(stream(), key),
  });
}

/** fd 1 or 2: text written to the descriptor until the stream is needed. */
export function lazyOutput(fd: 1 | 2, open: () => NodeJS.WriteStream): NodeJS.WriteStream {
  let real: NodeJS.WriteStream | undefined;
  const stream = () => (real ??= quietOnClosedPipe(open(), fd));
  function write(chunk: string | Uint8Array, encoding?: BufferEncoding | Callback, callback?: Callback): boolean {
    if (real) return real.write(chunk, encoding as BufferEncoding, callback);
    const done = typeof encoding === "function" ? encoding : callback;
    const utf8 = typeof encoding !== "string" || /^utf-?8$/i.test(encoding);
    let bytes: Uint8Array | undefined = typeof chunk === "string" ? (utf8 ? undefined : Buffer.from(chunk, encoding as BufferEncoding)) : chunk;
    let at = 0;
    try {
      if (!bytes) {
        // Text goes to the descriptor as it is: encoding it into a Buffer first cost ~4 ms of a
        // 250 KB listing (ls --json at 200 sessions). Only what one write left over is encoded.
        const text = chunk as string;
        at = writeSync(fd, text);
        bytes = at === Buffer.byteLength(text) ? EMPTY : Buffer.from(text, "utf8");
      }
      while (at < bytes.length) at += writeSync(fd, bytes, at);
    } catch (e) {
      if (closedPipe(e)) {
        readerGone(fd);
        return false;
      }
      // A descriptor left non-blocking by whoever made the pipe (EAGAIN): the stream waits for room.
      if ((e as NodeJS.ErrnoException).code === "EAGAIN") return stream().write(bytes ? bytes.subarray(at) : chunk, done);
      throw e;
    }
    if (done) queueMicrotask(() => done());
    return true;
  }
  return deferred(stream, { write });
}

/** stdin, opened on first use (a hook's payload, `--note-file -`). */
export function lazyInput(open: () => NodeJS.ReadStream): NodeJS.ReadStream {
  return deferred(open);
}
