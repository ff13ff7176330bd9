// Server-sent events read through fetch, because the stream needs the token
// header and EventSource cannot send one. Frames are parsed here. Each
// connection first asks the listener to prove it holds the token (api.ts);
// only then does the token travel. A dropped stream reconnects with backoff
// (0.5 s doubling to 5 s, with jitter, at once when the tab comes back into
// view), sending Last-Event-ID as EventSource would, unless the backend that
// answers is another instance (a restart), whose sequence numbers are not ours.
import { authHeaders, proveInstance } from "./api";

export interface StreamFrame {
  type: string;
  id: string;
  data: string;
}

export interface StreamOptions {
  path: string;
  onFrame(frame: StreamFrame): void;
  /** The listener proved it holds the token (the stream's request goes next): calls may carry it now. */
  onProven?(instanceId: string): void;
  /** Connected to a listener that proved it holds the token. */
  onOpen?(instanceId: string): void;
  /** The connection dropped or could not be made; a reconnect follows in `retryMs` unless `stop` was called or this returns false. */
  onDrop?(retryMs: number): boolean | void;
  /** Something answers on the backend's address but cannot prove it holds the token: the token was not sent; a retry follows. */
  onUnproven?(retryMs: number): void;
  /** A 401: no reconnect. */
  onRefused?(code: string): void;
  /** Any other refusal (a 4xx, say a session with no pane): no reconnect. */
  onError?(message: string): void;
  /** Resume where the last stream stopped (the event stream; a pane stream starts fresh). */
  resume?: boolean;
}

export interface Stream {
  stop(): void;
}

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 5000;

export function openStream(opts: StreamOptions): Stream {
  let lastId = "";
  let instance = "";
  let stopped = false;
  let failures = 0;
  let controller: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const retryIn = (): number => {
    const base = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** failures);
    failures += 1;
    return Math.round(base * (0.8 + Math.random() * 0.4));
  };
  const later = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, ms);
  };
  // Back in view: try now rather than at the end of a long wait.
  const onVisible = () => {
    if (!document.hidden && timer && !stopped) {
      clearTimeout(timer);
      timer = undefined;
      void connect();
    }
  };
  document.addEventListener("visibilitychange", onVisible);

  const connect = async (): Promise<void> => {
    const proving = await proveInstance();
    if (stopped) return;
    if (proving.kind !== "proven") {
      const ms = retryIn();
      if (proving.kind === "unproven") opts.onUnproven?.(ms);
      else if (opts.onDrop?.(ms) === false) return;
      later(ms);
      return;
    }
    if (proving.instanceId !== instance) lastId = ""; // another backend: start from its hello
    instance = proving.instanceId;
    opts.onProven?.(instance);
    controller = new AbortController();
    const headers = authHeaders({ accept: "text/event-stream" });
    if (opts.resume && lastId) headers["last-event-id"] = lastId;
    try {
      const res = await fetch(opts.path, { headers, cache: "no-store", signal: controller.signal });
      if (res.status === 401) {
        const j = (await res.json().catch(() => ({}))) as { error?: { code?: string } };
        opts.onRefused?.(j.error?.code ?? "");
        return;
      }
      if (res.status >= 400 && res.status < 500) {
        const j = (await res.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
        opts.onError?.(`${j.error?.message ?? `HTTP ${res.status}`}${j.error?.code ? ` [${j.error.code}]` : ""}`);
        return;
      }
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
      failures = 0;
      opts.onOpen?.(instance);
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buf = "";
      let frame: StreamFrame = { type: "", id: "", data: "" };
      let lines: string[] = [];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) throw new Error("the stream ended");
        buf += decoder.decode(value, { stream: true });
        let nl: number;
        while ((nl = buf.indexOf("\n")) >= 0) {
          const line = buf.slice(0, nl).replace(/\r$/, "");
          buf = buf.slice(nl + 1);
          if (line === "") {
            frame.data = lines.join("\n");
            if (frame.id) lastId = frame.id;
            if (lines.length) opts.onFrame(frame);
            frame = { type: "", id: "", data: "" };
            lines = [];
            continue;
          }
          if (line.startsWith(":")) continue;
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (field === "event") frame.type = value;
          else if (field === "data") lines.push(value);
          else if (field === "id") frame.id = value;
        }
      }
    } catch {
      if (stopped) return;
      const ms = retryIn();
      if (opts.onDrop?.(ms) === false) return;
      later(ms);
    }
  };
  void connect();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisible);
      controller?.abort();
    },
  };
}
