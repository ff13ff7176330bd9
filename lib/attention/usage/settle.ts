// Claude Code queues its transcript lines and appends them on a 100 ms timer,
// so its Stop hook can run before the turn's last reply is on disk: counted
// then, the turn's tokens would miss the budget check at rest. The hook waits
// (briefly, bounded) until the transcript ends its turn with the reply.
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";

const TAIL = 256 * 1024;

/** The file's last conversation entry (an assistant or user line), if any. */
function lastConversationEntry(file: string): { type: string; stopReason: unknown } | undefined {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    const from = Math.max(0, size - TAIL);
    const buf = Buffer.alloc(size - from);
    const n = readSync(fd, buf, 0, buf.length, from);
    const text = buf.subarray(0, n).toString("utf8");
    // Whole lines only: the first may be cut by the tail, the last may be half written.
    const lines = text.slice(from > 0 ? text.indexOf("\n") + 1 : 0, text.lastIndexOf("\n") + 1).split("\n");
    for (let i = lines.length - 1; i >= 0; i--) {
      const line = lines[i];
      if (!line) continue;
      try {
        const d = JSON.parse(line) as { type?: unknown; message?: { stop_reason?: unknown } };
        if (d.type === "assistant" || d.type === "user") return { type: d.type, stopReason: d.message?.stop_reason };
      } catch {
        // a line that is not JSON says nothing about the turn
      }
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The transcript ends with the model's reply (not a prompt, a tool result, or a call still to be answered). */
function claudeTurnOnDisk(file: string): boolean {
  const last = lastConversationEntry(file);
  return last?.type === "assistant" && last.stopReason !== "tool_use";
}

/**
 * Wait until `claudeTurnOnDisk`, at most `withinMs`. The file is looked at
 * again only when its size changed (one stat per poll otherwise).
 */
export async function waitForClaudeReply(file: string, withinMs = 1500, everyMs = 20): Promise<void> {
  const deadline = Date.now() + withinMs;
  let seen = -1;
  for (;;) {
    const size = sizeOf(file);
    if (size !== seen) {
      if (claudeTurnOnDisk(file)) return;
      seen = size;
    }
    if (Date.now() >= deadline) return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return -1;
  }
}
