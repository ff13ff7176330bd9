// Reading a hook's stdin payload. The agent may leave stdin open, so the read
// has a deadline; a missing or unparseable payload reads as empty.
import type { Readable } from "node:stream";

export interface HookPayload {
  session_id?: string;
  agent_id?: string;
  notification_type?: string;
  message?: string;
  prompt?: string;
  error?: unknown;
  [k: string]: unknown;
}

export function readPayload(stdin: Readable & { isTTY?: boolean }, deadlineMs = Number(process.env.SPEX_HOOK_STDIN_MS) || 2000): Promise<HookPayload> {
  if (stdin.isTTY) return Promise.resolve({});
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stdin.removeAllListeners("data");
      stdin.removeAllListeners("end");
      stdin.pause();
      (stdin as { unref?: () => void }).unref?.();
      const text = Buffer.concat(chunks).toString("utf8").trim();
      try {
        const v = text ? JSON.parse(text) : {};
        resolve(v && typeof v === "object" && !Array.isArray(v) ? (v as HookPayload) : {});
      } catch {
        // A payload that is not one JSON object: try its first line.
        try {
          resolve(JSON.parse(text.split("\n")[0] ?? "") as HookPayload);
        } catch {
          resolve({});
        }
      }
    };
    const timer = setTimeout(finish, deadlineMs);
    stdin.on("data", (c: Buffer | string) => {
      chunks.push(typeof c === "string" ? Buffer.from(c) : c);
      // A complete JSON object is enough: do not wait for an EOF that may never come.
      const text = Buffer.concat(chunks).toString("utf8").trim();
      if (text.endsWith("}")) {
        try {
          JSON.parse(text);
          finish();
        } catch {
          // keep reading
        }
      }
    });
    stdin.on("end", finish);
    stdin.on("error", finish);
  });
}
