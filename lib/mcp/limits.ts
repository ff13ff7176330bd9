// The bound of every string an MCP tool takes (docs/mcp.md "Limits"), in
// characters. Coordination entries use the limits their store enforces for
// every front (lib/coord/limits.ts); the rest bound what a tool stores or
// hands on (a session's name, a prompt, a note) or only looks up (selectors).
import { COORD_LIMITS } from "../coord/limits";
import { MAX_SESSION_NAME } from "../sessions/names";

export const MCP_LIMITS = {
  /** A session selector: a full id, an id prefix, a name, a branch, a node, a tmux target. */
  selector: 1024,
  /** Sessions named in one list or wait. */
  sessions: 100,
  /** A new session's first instruction (a launch refuses past what argv carries: prompt_too_large). */
  prompt: 131_072,
  /** A message to another session, as session_send delivers it (also at most 8 KiB of UTF-8: message_too_large). */
  message: 8192,
  /** A message id being answered. */
  messageId: 200,
  /** A declaration's note (done, park, ask); list rows carry its first 200 characters. */
  note: 16_384,
  /** A display name, as `--name` and `rename` take it. */
  name: MAX_SESSION_NAME,
  launcher: 100,
  base: 1024,
  directory: 4096,
  model: 200,
  effort: 32,
  /** An enum word (a status). */
  word: 32,
  ttl: 32,
  ...COORD_LIMITS,
} as const;

/** The largest JSON-RPC message `spex mcp` reads (one line): a longer one is answered request_too_large and dropped. */
export const MAX_MCP_REQUEST_BYTES = 4 * 1024 * 1024;
