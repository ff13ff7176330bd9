// Server-sent events read through fetch, because the stream needs the token
// header and EventSource cannot send one. Frames are parsed here; a dropped
// stream reconnects after 1 s with Last-Event-ID, as EventSource would.
import { authHeaders } from "./api";

export interface StreamFrame {
  type: string;
  id: string;
  data: string;
}

export interface StreamOptions {
  path: string;
  onFrame(frame: StreamFrame): void;
  onOpen?(): void;
  /** The connection dropped (a reconnect follows unless `stop` was called or this returns false). */
  onDrop?(): boolean | void;
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

export function openStream(opts: StreamOptions): Stream {
  let lastId = "";
  let stopped = false;
  let controller: AbortController | undefined;

  const connect = async (): Promise<void> => {
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
      opts.onOpen?.();
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
      if (opts.onDrop?.() === false) return;
      setTimeout(() => void (stopped || connect()), 1000);
    }
  };
  void connect();
  return {
    stop() {
      stopped = true;
      controller?.abort();
    },
  };
}
